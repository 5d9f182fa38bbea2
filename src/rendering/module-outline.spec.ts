import { writeModuleOutline } from './module-outline';
import { PathWriter } from './svg-path-writer';

const block = { size: 3, dark: new Uint8Array(9).fill(1), x: 0, y: 0, moduleSize: 10 };

function outline(type: 'square' | 'classy', minConvexRadius?: number): string {
  const path = new PathWriter();
  writeModuleOutline(block, type, path, minConvexRadius);
  return path.toString();
}

describe('writeModuleOutline: minConvexRadius (a finder centre fitted to a round ring)', () => {
  it('draws a 3×3 square block sharp by default', () => {
    expect(outline('square')).not.toContain('a');
  });

  it('rounds every outer corner at least by the floor, in modules', () => {
    const arcs = outline('square', 1.2).match(/a12 12/g) ?? [];
    expect(arcs).toHaveLength(4);
  });

  it('keeps a larger radius of the type where the floor is smaller', () => {
    // classy rounds the top-left and bottom-right corners by half a module; the floor 0.3 only adds the other two.
    const path = outline('classy', 0.3);
    expect(path.match(/a5 5/g) ?? []).toHaveLength(2);
    expect(path.match(/a3 3/g) ?? []).toHaveLength(2);
  });
});
