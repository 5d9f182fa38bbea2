import { centreCornerRadius, type CornerDrawing } from './finder-patterns';

type Ring = CornerDrawing<'square' | 'dot' | 'extra-rounded'>;

describe('centreCornerRadius: a finder centre fitted to its ring (docs/styling-and-scannability.md#finder-centres)', () => {
  it.each<[string, 'square' | 'dot', Ring, number]>([
    ['a dot in a round ring stays a circle', 'dot', { figure: 'dot' }, 1.5],
    ['a dot in a square ring is a square rounded by 1.2 modules', 'dot', { figure: 'square' }, 1.2],
    ['a dot in an extra-rounded ring likewise', 'dot', { figure: 'extra-rounded' }, 1.2],
    ['a dot in a ring of modules likewise', 'dot', { modules: 'rounded' }, 1.2],
    ['a square in a round ring gets 0.5-module corners', 'square', { figure: 'dot' }, 0.5],
    ['a square in a square ring stays sharp', 'square', { figure: 'square' }, 0],
    ['a square in an extra-rounded ring stays sharp', 'square', { figure: 'extra-rounded' }, 0],
    ['a square in a ring of round modules stays sharp', 'square', { modules: 'dots' }, 0],
  ])('%s', (_name, centre, ring, radius) => {
    expect(centreCornerRadius(centre, ring)).toBe(radius);
  });
});
