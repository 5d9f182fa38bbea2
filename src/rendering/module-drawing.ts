/** Draws a grid's dark modules in a dots type: a circle each for `dots`, one outline otherwise. */
import type { DotType } from './style/qr-style';
import { drawsSeparateCircles } from './dot-shapes';
import type { ModuleGrid } from './module-grid';
import { writeModuleOutline } from './module-outline';
import { writeCircle } from './shape-paths';
import type { PathWriter } from './svg-path-writer';

/** `minConvexRadius`: see writeModuleOutline (outlined types only). */
export function writeModules(grid: ModuleGrid, type: DotType, path: PathWriter, minConvexRadius = 0): void {
  if (!drawsSeparateCircles(type)) {
    writeModuleOutline(grid, type, path, minConvexRadius);
    return;
  }
  const radius = grid.moduleSize / 2;
  for (let row = 0; row < grid.size; row++) {
    for (let col = 0; col < grid.size; col++) {
      if (grid.dark[row * grid.size + col] === 1) {
        writeCircle(path, grid.x + col * grid.moduleSize + radius, grid.y + row * grid.moduleSize + radius, radius);
      }
    }
  }
}
