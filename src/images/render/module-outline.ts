/**
 * Outlines the union of a grid's dark modules as closed contours — outer boundaries clockwise,
 * holes anticlockwise, so the default non-zero fill rule draws them right — and rounds convex
 * corners with the radius the dot shape asks for. One contour replaces the dozens of per-module
 * shapes qr-code-styling emits, which is what keeps the SVG small.
 */
import type { DotType } from '../style/qr-style';
import { convexCornerRadius, Corner, type ConvexCorners } from './dot-shapes';
import { isDarkAt, type ModuleGrid } from './module-grid';
import type { PathWriter } from './svg-path-writer';

/** Travel directions along module edges, clockwise: a right turn is `direction + 1`. */
const enum Direction {
  Right = 0,
  Down = 1,
  Left = 2,
  Up = 3,
}

const STEP_X = [1, 0, -1, 0] as const;
const STEP_Y = [0, 1, 0, -1] as const;

/**
 * Edges are walked with the dark module on the right-hand side. Arriving in direction d and
 * turning right, the pen rounds this corner of the module on its right.
 */
const CORNER_AFTER_RIGHT_TURN: readonly Corner[] = [Corner.TopRight, Corner.BottomRight, Corner.BottomLeft, Corner.TopLeft];

function convexCornersOf(grid: ModuleGrid, row: number, col: number): ConvexCorners {
  const top = isDarkAt(grid, row - 1, col);
  const right = isDarkAt(grid, row, col + 1);
  const bottom = isDarkAt(grid, row + 1, col);
  const left = isDarkAt(grid, row, col - 1);
  return (
    (!top && !left ? 1 << Corner.TopLeft : 0) |
    (!top && !right ? 1 << Corner.TopRight : 0) |
    (!bottom && !right ? 1 << Corner.BottomRight : 0) |
    (!bottom && !left ? 1 << Corner.BottomLeft : 0)
  );
}

/** The module whose corner lies at a grid vertex, by which corner it is. */
function moduleAtCorner(vertexRow: number, vertexCol: number, corner: Corner): [row: number, col: number] {
  switch (corner) {
    case Corner.TopLeft:
      return [vertexRow, vertexCol];
    case Corner.TopRight:
      return [vertexRow, vertexCol - 1];
    case Corner.BottomRight:
      return [vertexRow - 1, vertexCol - 1];
    default:
      return [vertexRow - 1, vertexCol];
  }
}

/** Outgoing boundary edges per grid vertex ((size+1)² of them), as bits (1 << Direction). */
function boundaryEdges(grid: ModuleGrid): Uint8Array {
  const { size, dark } = grid;
  const stride = size + 1;
  const edges = new Uint8Array(stride * stride);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (dark[row * size + col] === 0) continue;
      const vertex = row * stride + col;
      if (!isDarkAt(grid, row - 1, col)) edges[vertex] |= 1 << Direction.Right;
      if (!isDarkAt(grid, row, col + 1)) edges[vertex + 1] |= 1 << Direction.Down;
      if (!isDarkAt(grid, row + 1, col)) edges[vertex + stride + 1] |= 1 << Direction.Left;
      if (!isDarkAt(grid, row, col - 1)) edges[vertex + stride] |= 1 << Direction.Up;
    }
  }
  return edges;
}

/**
 * Where the walk goes next from a vertex it reached travelling `incoming`. A right turn wins: at a
 * vertex where two modules touch only diagonally it keeps them apart, each with its own corner.
 */
function nextDirection(edgeBits: number, incoming: Direction): Direction {
  const right = (incoming + 1) & 3;
  if (edgeBits & (1 << right)) return right;
  if (edgeBits & (1 << incoming)) return incoming;
  return (incoming + 3) & 3;
}

interface ContourCorner {
  vertexRow: number;
  vertexCol: number;
  incoming: Direction;
  outgoing: Direction;
  /** pixels; 0 for a concave or square corner */
  radius: number;
}

function traceContour(
  grid: ModuleGrid,
  edges: Uint8Array,
  startVertex: number,
  startDirection: Direction,
  type: DotType,
): ContourCorner[] {
  const stride = grid.size + 1;
  const corners: ContourCorner[] = [];
  let vertex = startVertex;
  let direction = startDirection;
  for (;;) {
    edges[vertex] &= ~(1 << direction);
    const vertexRow = Math.floor(vertex / stride) + STEP_Y[direction];
    const vertexCol = (vertex % stride) + STEP_X[direction];
    vertex = vertexRow * stride + vertexCol;
    const edgeBits = vertex === startVertex ? edges[vertex] | (1 << startDirection) : edges[vertex];
    const outgoing = nextDirection(edgeBits, direction);
    if (outgoing !== direction) {
      let radius = 0;
      if (outgoing === ((direction + 1) & 3)) {
        const corner = CORNER_AFTER_RIGHT_TURN[direction];
        const [row, col] = moduleAtCorner(vertexRow, vertexCol, corner);
        radius = convexCornerRadius(type, corner, convexCornersOf(grid, row, col)) * grid.moduleSize;
      }
      corners.push({ vertexRow, vertexCol, incoming: direction, outgoing, radius });
    }
    if (vertex === startVertex && outgoing === startDirection) return corners;
    direction = outgoing;
  }
}

function writeContour(grid: ModuleGrid, corners: readonly ContourCorner[], path: PathWriter): void {
  const { x, y, moduleSize } = grid;
  const pointX = (corner: ContourCorner): number => x + corner.vertexCol * moduleSize;
  const pointY = (corner: ContourCorner): number => y + corner.vertexRow * moduleSize;

  const first = corners[0];
  path.moveTo(pointX(first) + STEP_X[first.outgoing] * first.radius, pointY(first) + STEP_Y[first.outgoing] * first.radius);
  for (let index = 1; index <= corners.length; index++) {
    const corner = corners[index % corners.length];
    const cornerX = pointX(corner);
    const cornerY = pointY(corner);
    const { radius } = corner;
    if (index === corners.length && radius === 0) break;
    path.lineTo(cornerX - STEP_X[corner.incoming] * radius, cornerY - STEP_Y[corner.incoming] * radius);
    if (radius > 0) {
      path.arcTo(radius, false, true, cornerX + STEP_X[corner.outgoing] * radius, cornerY + STEP_Y[corner.outgoing] * radius);
    }
  }
  path.close();
}

/** Appends the outline of the grid's dark modules, shaped as `type` (not `dots`), to the path. */
export function writeModuleOutline(grid: ModuleGrid, type: DotType, path: PathWriter): void {
  const edges = boundaryEdges(grid);
  for (let vertex = 0; vertex < edges.length; vertex++) {
    while (edges[vertex] !== 0) {
      const direction = (31 - Math.clz32(edges[vertex] & -edges[vertex])) as Direction;
      writeContour(grid, traceContour(grid, edges, vertex, direction, type), path);
    }
  }
}
