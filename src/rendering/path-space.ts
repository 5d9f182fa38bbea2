/**
 * The coordinate space module paths are written in: half modules, from the code's top-left
 * corner, placed on the canvas by one `transform`. Every coordinate and radius of a module shape
 * is then a small integer (a rounded corner is half a module: 1 unit), which keeps path data short
 * whatever the pixel size of a module. Gradients, computed in canvas pixels as qr-code-styling
 * does, are carried into this space.
 */
import type { CodeLayout } from './code-layout';
import { roundTo } from './svg-markup';

export const UNITS_PER_MODULE = 2;

export interface PathSpace {
  /** canvas pixels per unit */
  unit: number;
  /** canvas position of the space's origin, pixels */
  originX: number;
  originY: number;
}

/** Canvas pixels themselves (background, logo). */
export const CANVAS_SPACE: PathSpace = { unit: 1, originX: 0, originY: 0 };

export function codeSpace(layout: CodeLayout): PathSpace {
  return { unit: layout.moduleSize / UNITS_PER_MODULE, originX: layout.x, originY: layout.y };
}

export function toSpaceX(space: PathSpace, canvasX: number): number {
  return (canvasX - space.originX) / space.unit;
}

export function toSpaceY(space: PathSpace, canvasY: number): number {
  return (canvasY - space.originY) / space.unit;
}

/** The `transform` that places the space on the canvas; undefined for the canvas itself. */
export function spaceTransform(space: PathSpace): string | undefined {
  if (space.unit === 1 && space.originX === 0 && space.originY === 0) return undefined;
  const unit = roundTo(space.unit, 6);
  return `matrix(${unit} 0 0 ${unit} ${roundTo(space.originX, 4)} ${roundTo(space.originY, 4)})`;
}
