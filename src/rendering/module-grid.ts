/**
 * A square grid of modules to draw, placed on the canvas: the code's data modules, the extended
 * grid of the circle shape, or the 7×7 / 3×3 masks a finder pattern is drawn from with a dot type.
 */
export interface ModuleGrid {
  /** modules per side */
  size: number;
  /** size*size, row-major, 1 = draw this module */
  dark: Uint8Array;
  /** canvas position of the grid's top-left corner, pixels */
  x: number;
  y: number;
  /** module side, pixels */
  moduleSize: number;
}

export function isDarkAt(grid: ModuleGrid, row: number, col: number): boolean {
  return row >= 0 && col >= 0 && row < grid.size && col < grid.size && grid.dark[row * grid.size + col] === 1;
}
