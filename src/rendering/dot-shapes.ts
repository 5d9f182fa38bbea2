/**
 * How qr-code-styling shapes one module of each dots type from its four neighbours. Except for
 * `dots` (every module a circle), each type only ever rounds *convex* corners of a module — corners
 * whose two adjacent sides both face a light module — so the drawn area is the union of the dark
 * modules with some convex corners rounded, and can be outlined as a whole (module-outline.ts).
 * This file decides the radius of each such corner:
 *
 * - square: none.
 * - rounded: every convex corner, radius half a module (a lone module is a circle, a line end a
 *   half-disc).
 * - extra-rounded: like rounded, but a module with a single convex corner (an outer corner of a
 *   bend) rounds it with a full-module radius.
 * - classy: the convex top-left and bottom-right corners, radius half a module.
 * - classy-rounded: like classy, with a full-module radius, except on a lone module (half).
 */
import type { DotType } from './style/qr-style';

export enum Corner {
  TopLeft = 0,
  TopRight = 1,
  BottomRight = 2,
  BottomLeft = 3,
}

/** Which corners of a module are convex, as bits (1 << Corner). */
export type ConvexCorners = number;

/** Radius of a convex corner as a fraction of the module side (0 = square corner). */
export function convexCornerRadius(type: DotType, corner: Corner, convexCorners: ConvexCorners): number {
  switch (type) {
    case 'rounded':
      return 0.5;
    case 'extra-rounded':
      return convexCorners === 1 << corner ? 1 : 0.5;
    case 'classy':
      return corner === Corner.TopLeft || corner === Corner.BottomRight ? 0.5 : 0;
    case 'classy-rounded':
      if (corner !== Corner.TopLeft && corner !== Corner.BottomRight) return 0;
      return convexCorners === 0b1111 ? 0.5 : 1;
    default:
      return 0;
  }
}

/** `dots` draws each module as its own circle; every other type is outlined as a union. */
export function drawsSeparateCircles(type: DotType): boolean {
  return type === 'dots';
}
