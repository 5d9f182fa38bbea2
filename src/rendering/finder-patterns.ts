/**
 * The three finder patterns, drawn as qr-code-styling draws its "corners": a 7×7 outer ring (the
 * corner square) and a 3×3 centre (the corner dot). The dedicated figures are square, dot (circle)
 * and extra-rounded for the ring, square and dot for the centre; any dots type instead shapes the
 * ring's or centre's modules like data modules, seeing only the modules of the ring or centre as
 * neighbours. An unset type falls back to the dots type *as a module shape*: with extra-rounded
 * dots, an unset corner square is extra-rounded modules, not the extra-rounded figure; where that
 * would draw loose circles, style/finder-defaults.ts has already chosen a solid figure.
 */
import type { CornerDotType, CornerSquareType, DotType } from './style/qr-style';
import { writeModules } from './module-drawing';
import type { ModuleGrid } from './module-grid';
import { moduleShapeAt, type ShapeThresholds, thresholdOf } from './module-size-rule';
import type { Box } from './paint';
import { writeCircle, writeCircleRing, writeRoundedSquare, writeSquareRing } from './shape-paths';
import type { PathWriter } from './svg-path-writer';

const FINDER_SIDE = 7;
const CENTRE_SIDE = 3;
const CENTRE_OFFSET = 2;

/**
 * Top-left module of each finder pattern (top-left, top-right, bottom-left) with the extra
 * gradient rotation qr-code-styling gives that corner.
 */
export interface FinderPosition {
  row: number;
  col: number;
  rotationDegrees: number;
}

export function finderPositions(moduleCount: number): FinderPosition[] {
  const far = moduleCount - FINDER_SIDE;
  return [
    { row: 0, col: 0, rotationDegrees: 0 },
    { row: 0, col: far, rotationDegrees: 90 },
    { row: far, col: 0, rotationDegrees: -90 },
  ];
}

/** Whether a module of the code belongs to one of the 7×7 finder areas (drawn by this file). */
export function isInFinderArea(moduleCount: number, row: number, col: number): boolean {
  const far = moduleCount - FINDER_SIDE;
  return (row < FINDER_SIDE && (col < FINDER_SIDE || col >= far)) || (row >= far && col < FINDER_SIDE);
}

function maskGrid(side: number, isDark: (row: number, col: number) => boolean, x: number, y: number, moduleSize: number): ModuleGrid {
  const dark = new Uint8Array(side * side);
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) dark[row * side + col] = isDark(row, col) ? 1 : 0;
  }
  return { size: side, dark, x, y, moduleSize };
}

const RING_MASK = (row: number, col: number): boolean => row === 0 || col === 0 || row === FINDER_SIDE - 1 || col === FINDER_SIDE - 1;
const CENTRE_MASK = (): boolean => true;

const CORNER_SQUARE_FIGURES: readonly string[] = ['square', 'dot', 'extra-rounded'];
const CORNER_DOT_FIGURES: readonly string[] = ['square', 'dot'];

/** A figure of its own, or the modules of the ring/centre shaped as a dots type. */
export type CornerDrawing<Figure extends string> = { figure: Figure } | { modules: DotType };

/**
 * How the ring is drawn: its figure, else modules of its type or (unset) of the dots type; each
 * degraded to a square below its module-width threshold (module-size-rule.ts).
 */
export function cornerSquareDrawing(
  type: CornerSquareType | undefined,
  dotsType: DotType,
  moduleSize: number,
  thresholds: ShapeThresholds,
): CornerDrawing<'square' | 'dot' | 'extra-rounded'> {
  if (type && CORNER_SQUARE_FIGURES.includes(type)) {
    const figure = type as 'square' | 'dot' | 'extra-rounded';
    return { figure: moduleSize < thresholdOf(`ring:${figure}`, thresholds) ? 'square' : figure };
  }
  return { modules: moduleShapeAt((type as DotType | undefined) ?? dotsType, moduleSize, thresholds) };
}

/** How the centre is drawn, by the same rules as the ring. */
export function cornerDotDrawing(
  type: CornerDotType | undefined,
  dotsType: DotType,
  moduleSize: number,
  thresholds: ShapeThresholds,
): CornerDrawing<'square' | 'dot'> {
  if (type && CORNER_DOT_FIGURES.includes(type)) {
    const figure = type as 'square' | 'dot';
    return { figure: moduleSize < thresholdOf(`centre:${figure}`, thresholds) ? 'square' : figure };
  }
  return { modules: moduleShapeAt((type as DotType | undefined) ?? dotsType, moduleSize, thresholds) };
}

/** The 7×7 ring at (x, y). */
export function writeCornerSquare(
  path: PathWriter,
  drawing: CornerDrawing<'square' | 'dot' | 'extra-rounded'>,
  x: number,
  y: number,
  moduleSize: number,
): void {
  const side = FINDER_SIDE * moduleSize;
  if ('modules' in drawing) {
    writeModules(maskGrid(FINDER_SIDE, RING_MASK, x, y, moduleSize), drawing.modules, path);
    return;
  }
  switch (drawing.figure) {
    case 'square':
      writeSquareRing(path, x, y, side, moduleSize, 0, 0);
      return;
    case 'dot':
      writeCircleRing(path, x + side / 2, y + side / 2, side / 2, side / 2 - moduleSize);
      return;
    default:
      writeSquareRing(path, x, y, side, moduleSize, 2.5 * moduleSize, 1.5 * moduleSize);
  }
}

/** Least corner radius (modules) of a centre in a `dot` ring and in an `extra-rounded` one. */
const CENTRE_FLOOR_IN_DOT_RING = 1.2;
const CENTRE_FLOOR_IN_EXTRA_ROUNDED_RING = 0.6;
/** Corner radius (modules) of a `dot` centre in an `extra-rounded` ring and in a square-cornered one. */
const DOT_CENTRE_IN_EXTRA_ROUNDED_RING = 1.2;
const DOT_CENTRE_IN_SQUARE_RING = 0.8;

/**
 * The least corner radius, in modules, of any centre inside this ring. Decoders that check a
 * finder's diagonals expect the same 1:1:3:1:1 runs there as across it (zxing-cpp 1.x: each run
 * within 0.75 of a module, the 3-module centre included; jsQR scores the error), and a ring's
 * diagonal runs are set by its corners: the centre must end along the diagonal about 3/7 of the
 * way to the ring's outer corner. A sharp 3×3 square ends 2.12 modules out, right for a square
 * ring; a round ring (outer corner 3.5 out) wants about 1.5, an extra-rounded one (3.91) about 1.7.
 */
export function centreCornerFloor(ring: CornerDrawing<'square' | 'dot' | 'extra-rounded'>): number {
  if (!('figure' in ring)) return 0;
  if (ring.figure === 'dot') return CENTRE_FLOOR_IN_DOT_RING;
  return ring.figure === 'extra-rounded' ? CENTRE_FLOOR_IN_EXTRA_ROUNDED_RING : 0;
}

/**
 * Corner radius, in modules, of a centre figure inside its ring (the runs across the finder stay
 * exactly 1:1:3:1:1). A `square` centre is rounded by the ring's floor (centreCornerFloor); a
 * `dot` centre is a circle in a round ring, and elsewhere a square rounded enough to look round
 * but still reaching out along the diagonal as the ring expects. The radii come from decode
 * measurements (docs/styling-and-scannability.md#finder-centres).
 */
export function centreCornerRadius(centre: 'square' | 'dot', ring: CornerDrawing<'square' | 'dot' | 'extra-rounded'>): number {
  if (centre === 'square') return centreCornerFloor(ring);
  if (!('figure' in ring) || ring.figure === 'square') return DOT_CENTRE_IN_SQUARE_RING;
  return ring.figure === 'dot' ? CENTRE_SIDE / 2 : DOT_CENTRE_IN_EXTRA_ROUNDED_RING;
}

/** The 3×3 centre of the finder whose 7×7 area starts at (x, y), inside the ring drawn as `ring`. */
export function writeCornerDot(
  path: PathWriter,
  drawing: CornerDrawing<'square' | 'dot'>,
  ring: CornerDrawing<'square' | 'dot' | 'extra-rounded'>,
  x: number,
  y: number,
  moduleSize: number,
): void {
  const left = x + CENTRE_OFFSET * moduleSize;
  const top = y + CENTRE_OFFSET * moduleSize;
  const side = CENTRE_SIDE * moduleSize;
  if ('modules' in drawing) {
    writeModules(maskGrid(CENTRE_SIDE, CENTRE_MASK, left, top, moduleSize), drawing.modules, path, centreCornerFloor(ring));
    return;
  }
  const radius = centreCornerRadius(drawing.figure, ring);
  if (radius === CENTRE_SIDE / 2) writeCircle(path, left + side / 2, top + side / 2, side / 2);
  else writeRoundedSquare(path, left, top, side, radius * moduleSize);
}

/** The 3×3 centre's box, for gradients laid over one corner dot. */
export function cornerDotBox(x: number, y: number, moduleSize: number): Box {
  const side = CENTRE_SIDE * moduleSize;
  return { x: x + CENTRE_OFFSET * moduleSize, y: y + CENTRE_OFFSET * moduleSize, width: side, height: side };
}

/** The 7×7 area's box, for gradients laid over one corner square. */
export function cornerSquareBox(x: number, y: number, moduleSize: number): Box {
  const side = FINDER_SIDE * moduleSize;
  return { x, y, width: side, height: side };
}
