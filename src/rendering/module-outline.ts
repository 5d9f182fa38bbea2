/**
 * Outlines the union of a grid's dark modules as closed contours — outer boundaries clockwise,
 * holes anticlockwise, so the default non-zero fill rule draws them right — and rounds convex
 * corners with the radius the dot shape asks for. One contour replaces the dozens of per-module
 * shapes qr-code-styling emits, which is what keeps the SVG small.
 */
import type { DotType } from './style/qr-style';
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
 * turning right, the pen rounds this corner of the module on its right; the module is offset
 * from the vertex by (row, col) = (CORNER_MODULE_ROW[d], CORNER_MODULE_COL[d]).
 */
const CORNER_AFTER_RIGHT_TURN: readonly Corner[] = [Corner.TopRight, Corner.BottomRight, Corner.BottomLeft, Corner.TopLeft];
const CORNER_MODULE_ROW = [0, -1, -1, 0] as const;
const CORNER_MODULE_COL = [-1, -1, 0, 0] as const;

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

/** Outgoing boundary edges per grid vertex ((size+1)² of them), as bits (1 << Direction). */
function boundaryEdges(grid: ModuleGrid): Uint8Array {
  const { size, dark } = grid;
  const stride = size + 1;
  const edges = new Uint8Array(stride * stride);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const index = row * size + col;
      if (dark[index] === 0) continue;
      const vertex = row * stride + col;
      if (row === 0 || dark[index - size] === 0) edges[vertex] |= 1 << Direction.Right;
      if (col === size - 1 || dark[index + 1] === 0) edges[vertex + 1] |= 1 << Direction.Down;
      if (row === size - 1 || dark[index + size] === 0) edges[vertex + stride + 1] |= 1 << Direction.Left;
      if (col === 0 || dark[index - 1] === 0) edges[vertex + stride] |= 1 << Direction.Up;
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

/** The corners (turns) of one contour, in walking order; reused between contours to spare allocations. */
class ContourCorners {
  length = 0;
  vertexRow = new Int32Array(64);
  vertexCol = new Int32Array(64);
  incoming = new Uint8Array(64);
  outgoing = new Uint8Array(64);
  /** pixels; 0 for a concave or square corner */
  radius = new Float64Array(64);

  push(vertexRow: number, vertexCol: number, incoming: Direction, outgoing: Direction, radius: number): void {
    if (this.length === this.radius.length) this.grow();
    const index = this.length++;
    this.vertexRow[index] = vertexRow;
    this.vertexCol[index] = vertexCol;
    this.incoming[index] = incoming;
    this.outgoing[index] = outgoing;
    this.radius[index] = radius;
  }

  private grow(): void {
    const capacity = this.radius.length * 2;
    const grown = <T extends Int32Array | Uint8Array | Float64Array>(array: T, make: (length: number) => T): T => {
      const copy = make(capacity);
      copy.set(array);
      return copy;
    };
    this.vertexRow = grown(this.vertexRow, (n) => new Int32Array(n));
    this.vertexCol = grown(this.vertexCol, (n) => new Int32Array(n));
    this.incoming = grown(this.incoming, (n) => new Uint8Array(n));
    this.outgoing = grown(this.outgoing, (n) => new Uint8Array(n));
    this.radius = grown(this.radius, (n) => new Float64Array(n));
  }
}

/** Walks one contour from an edge, clearing its edges, and collects its corners. */
function traceContour(
  grid: ModuleGrid,
  type: DotType,
  minConvexRadius: number,
  edges: Uint8Array,
  startVertex: number,
  startDirection: Direction,
  corners: ContourCorners,
): void {
  const stride = grid.size + 1;
  corners.length = 0;
  let vertex = startVertex;
  let direction = startDirection;
  for (;;) {
    edges[vertex] &= ~(1 << direction);
    const vertexRow = Math.floor(vertex / stride) + STEP_Y[direction];
    const vertexCol = (vertex % stride) + STEP_X[direction];
    vertex = vertexRow * stride + vertexCol;
    // The start edge is already cleared; it must still count when the walk comes back round.
    const edgeBits = vertex === startVertex ? edges[vertex] | (1 << startDirection) : edges[vertex];
    const outgoing = nextDirection(edgeBits, direction);
    if (outgoing !== direction) {
      let radius = 0;
      if (outgoing === (((direction + 1) & 3) as Direction)) {
        const row = vertexRow + CORNER_MODULE_ROW[direction];
        const col = vertexCol + CORNER_MODULE_COL[direction];
        const corner = CORNER_AFTER_RIGHT_TURN[direction];
        radius = Math.max(convexCornerRadius(type, corner, convexCornersOf(grid, row, col)), minConvexRadius) * grid.moduleSize;
      }
      corners.push(vertexRow, vertexCol, direction, outgoing, radius);
    }
    if (vertex === startVertex && outgoing === startDirection) return;
    direction = outgoing;
  }
}

/** Straight runs between corners, each rounded corner as a quarter-circle arc. */
function writeContour(grid: ModuleGrid, corners: ContourCorners, path: PathWriter): void {
  const { x, y, moduleSize } = grid;
  const { vertexRow, vertexCol, incoming, outgoing, radius } = corners;
  const count = corners.length;
  path.moveTo(x + vertexCol[0] * moduleSize + STEP_X[outgoing[0]] * radius[0], y + vertexRow[0] * moduleSize + STEP_Y[outgoing[0]] * radius[0]);
  for (let step = 1; step <= count; step++) {
    const index = step % count;
    const cornerRadius = radius[index];
    // Back at the first corner: a sharp one is closed by `z` itself.
    if (step === count && cornerRadius === 0) break;
    const cornerX = x + vertexCol[index] * moduleSize;
    const cornerY = y + vertexRow[index] * moduleSize;
    path.lineTo(cornerX - STEP_X[incoming[index]] * cornerRadius, cornerY - STEP_Y[incoming[index]] * cornerRadius);
    if (cornerRadius > 0) {
      path.arcTo(cornerRadius, false, true, cornerX + STEP_X[outgoing[index]] * cornerRadius, cornerY + STEP_Y[outgoing[index]] * cornerRadius);
    }
  }
  path.close();
}

/** Scratch space shared by all calls: rendering is synchronous, so one walk never overlaps another. */
const scratchCorners = new ContourCorners();

/**
 * Appends the outline of the grid's dark modules, shaped as `type` (not `dots`), to the path.
 * `minConvexRadius` (modules) rounds every convex corner at least that much: a finder centre
 * fitted to a round ring (finder-patterns.ts centreCornerFloor); it must leave room for both
 * corners of every straight run.
 */
export function writeModuleOutline(grid: ModuleGrid, type: DotType, path: PathWriter, minConvexRadius = 0): void {
  const edges = boundaryEdges(grid);
  const corners = scratchCorners;
  for (let vertex = 0; vertex < edges.length; vertex++) {
    while (edges[vertex] !== 0) {
      const lowestEdge = edges[vertex] & -edges[vertex];
      traceContour(grid, type, minConvexRadius, edges, vertex, 31 - Math.clz32(lowestEdge), corners);
      writeContour(grid, corners, path);
    }
  }
}
