import { centreCornerFloor, centreCornerRadius, type CornerDrawing } from './finder-patterns';

type Ring = CornerDrawing<'square' | 'dot' | 'extra-rounded'>;

describe('centreCornerRadius: a finder centre fitted to its ring (docs/styling-and-scannability.md#finder-centres)', () => {
  it.each<[string, 'square' | 'dot', Ring, number]>([
    ['a dot in a round ring stays a circle', 'dot', { figure: 'dot' }, 1.5],
    ['a dot in a square ring is a square rounded by 0.8 module', 'dot', { figure: 'square' }, 0.8],
    ['a dot in an extra-rounded ring is a square rounded by 1.2 modules', 'dot', { figure: 'extra-rounded' }, 1.2],
    ['a dot in a ring of modules is fitted as in a square ring', 'dot', { modules: 'rounded' }, 0.8],
    ['a square in a round ring gets 1.2-module corners', 'square', { figure: 'dot' }, 1.2],
    ['a square in an extra-rounded ring gets 0.6-module corners', 'square', { figure: 'extra-rounded' }, 0.6],
    ['a square in a square ring stays sharp', 'square', { figure: 'square' }, 0],
    ['a square in a ring of round modules stays sharp', 'square', { modules: 'dots' }, 0],
  ])('%s', (_name, centre, ring, radius) => {
    expect(centreCornerRadius(centre, ring)).toBe(radius);
  });
});

describe('centreCornerFloor: the least rounding of any centre, module-drawn ones included', () => {
  it.each<[Ring, number]>([
    [{ figure: 'dot' }, 1.2],
    [{ figure: 'extra-rounded' }, 0.6],
    [{ figure: 'square' }, 0],
    [{ modules: 'classy' }, 0],
  ])('%j: %d modules', (ring, floor) => {
    expect(centreCornerFloor(ring)).toBe(floor);
  });
});
