/**
 * Closed figures written into a path: circles, squares with rounded corners, and rings made of an
 * outer figure drawn clockwise with an inner one anticlockwise, so the non-zero fill rule leaves
 * the inside empty without needing `fill-rule`.
 */
import type { PathWriter } from './svg-path-writer';

export function writeCircle(path: PathWriter, centreX: number, centreY: number, radius: number, clockwise = true): void {
  path.moveTo(centreX - radius, centreY);
  path.arcTo(radius, false, clockwise, centreX + radius, centreY);
  path.arcTo(radius, false, clockwise, centreX - radius, centreY);
  path.close();
}

/** A square with all four corners rounded by `radius` (0 for sharp corners). */
export function writeRoundedSquare(path: PathWriter, x: number, y: number, side: number, radius: number, clockwise = true): void {
  const far = side - radius;
  // Corner points in drawing order, each followed by the point where its rounding ends.
  const points: Array<[number, number, number, number]> = clockwise
    ? [
        [x + far, y, x + side, y + radius],
        [x + side, y + far, x + far, y + side],
        [x + radius, y + side, x, y + far],
        [x, y + radius, x + radius, y],
      ]
    : [
        [x, y + far, x + radius, y + side],
        [x + far, y + side, x + side, y + far],
        [x + side, y + radius, x + far, y],
        [x + radius, y, x, y + radius],
      ];
  const [, , startX, startY] = points[3];
  path.moveTo(startX, startY);
  for (const [lineEndX, lineEndY, arcEndX, arcEndY] of points) {
    path.lineTo(lineEndX, lineEndY);
    if (radius > 0) path.arcTo(radius, false, clockwise, arcEndX, arcEndY);
  }
  path.close();
}

/** A square ring `thickness` wide; corners rounded by `outerRadius` outside and `innerRadius` inside. */
export function writeSquareRing(
  path: PathWriter,
  x: number,
  y: number,
  side: number,
  thickness: number,
  outerRadius: number,
  innerRadius: number,
): void {
  writeRoundedSquare(path, x, y, side, outerRadius, true);
  writeRoundedSquare(path, x + thickness, y + thickness, side - 2 * thickness, innerRadius, false);
}

export function writeCircleRing(path: PathWriter, centreX: number, centreY: number, outerRadius: number, innerRadius: number): void {
  writeCircle(path, centreX, centreY, outerRadius, true);
  writeCircle(path, centreX, centreY, innerRadius, false);
}
