/**
 * The module grid of one symbol: function patterns (finders, separators, timing, alignment,
 * reserved format/version areas) and the zigzag placement of the codeword bits. Grids are
 * row-major Uint8Arrays of size*size.
 */
import type { ErrorCorrectionLevel } from '../style/qr-style';
import { alignmentPatternCentres, symbolSize } from './symbol-tables';

export interface SymbolGrid {
  size: number;
  /** 1 = dark */
  modules: Uint8Array;
  /** 1 = part of a function pattern or reserved area: never masked, never holds data */
  isFunction: Uint8Array;
}

const FORMAT_LEVEL_BITS: Record<ErrorCorrectionLevel, number> = { L: 0b01, M: 0b00, Q: 0b11, H: 0b10 };
const FORMAT_GENERATOR = 0x537;
const FORMAT_XOR_MASK = 0x5412;
const VERSION_GENERATOR = 0x1f25;

function setFunctionModule(grid: SymbolGrid, row: number, col: number, dark: boolean): void {
  const index = row * grid.size + col;
  grid.modules[index] = dark ? 1 : 0;
  grid.isFunction[index] = 1;
}

/** Finder pattern with its separator, centred on (row, col); parts outside the symbol are skipped. */
function placeFinder(grid: SymbolGrid, centreRow: number, centreCol: number): void {
  for (let dr = -4; dr <= 4; dr++) {
    for (let dc = -4; dc <= 4; dc++) {
      const row = centreRow + dr;
      const col = centreCol + dc;
      if (row < 0 || row >= grid.size || col < 0 || col >= grid.size) continue;
      const ring = Math.max(Math.abs(dr), Math.abs(dc));
      setFunctionModule(grid, row, col, ring !== 2 && ring !== 4);
    }
  }
}

function placeAlignment(grid: SymbolGrid, centreRow: number, centreCol: number): void {
  for (let dr = -2; dr <= 2; dr++) {
    for (let dc = -2; dc <= 2; dc++) {
      setFunctionModule(grid, centreRow + dr, centreCol + dc, Math.max(Math.abs(dr), Math.abs(dc)) !== 1);
    }
  }
}

function formatBits(level: ErrorCorrectionLevel, mask: number): number {
  const data = (FORMAT_LEVEL_BITS[level] << 3) | mask;
  let remainder = data;
  for (let step = 0; step < 10; step++) remainder = (remainder << 1) ^ ((remainder >>> 9) * FORMAT_GENERATOR);
  return ((data << 10) | remainder) ^ FORMAT_XOR_MASK;
}

/** Writes both copies of the 15 format bits (also used to reserve their modules). */
export function placeFormatBits(grid: SymbolGrid, level: ErrorCorrectionLevel, mask: number): void {
  const { size } = grid;
  const bits = formatBits(level, mask);
  const bit = (index: number): boolean => ((bits >>> index) & 1) === 1;
  for (let index = 0; index <= 5; index++) setFunctionModule(grid, index, 8, bit(index));
  setFunctionModule(grid, 7, 8, bit(6));
  setFunctionModule(grid, 8, 8, bit(7));
  setFunctionModule(grid, 8, 7, bit(8));
  for (let index = 9; index < 15; index++) setFunctionModule(grid, 8, 14 - index, bit(index));
  for (let index = 0; index < 8; index++) setFunctionModule(grid, 8, size - 1 - index, bit(index));
  for (let index = 8; index < 15; index++) setFunctionModule(grid, size - 15 + index, 8, bit(index));
  setFunctionModule(grid, size - 8, 8, true);
}

function placeVersionBits(grid: SymbolGrid, version: number): void {
  if (version < 7) return;
  let remainder = version;
  for (let step = 0; step < 12; step++) remainder = (remainder << 1) ^ ((remainder >>> 11) * VERSION_GENERATOR);
  const bits = (version << 12) | remainder;
  for (let index = 0; index < 18; index++) {
    const dark = ((bits >>> index) & 1) === 1;
    const near = Math.floor(index / 3);
    const far = grid.size - 11 + (index % 3);
    setFunctionModule(grid, near, far, dark);
    setFunctionModule(grid, far, near, dark);
  }
}

/** A grid with every function pattern drawn and the format area reserved (its bits come with the mask). */
export function createSymbolGrid(version: number, level: ErrorCorrectionLevel): SymbolGrid {
  const size = symbolSize(version);
  const grid: SymbolGrid = { size, modules: new Uint8Array(size * size), isFunction: new Uint8Array(size * size) };

  for (let index = 0; index < size; index++) {
    setFunctionModule(grid, 6, index, index % 2 === 0);
    setFunctionModule(grid, index, 6, index % 2 === 0);
  }
  placeFinder(grid, 3, 3);
  placeFinder(grid, 3, size - 4);
  placeFinder(grid, size - 4, 3);

  const centres = alignmentPatternCentres(version);
  const last = centres.length - 1;
  for (let i = 0; i <= last; i++) {
    for (let j = 0; j <= last; j++) {
      const overlapsFinder = (i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0);
      if (!overlapsFinder) placeAlignment(grid, centres[i], centres[j]);
    }
  }

  placeFormatBits(grid, level, 0);
  placeVersionBits(grid, version);
  return grid;
}

/**
 * Places the codeword bits in two-column strips from the bottom-right corner, alternating upward
 * and downward, skipping the vertical timing column. Remainder modules stay light.
 */
export function placeCodewords(grid: SymbolGrid, codewords: Uint8Array): void {
  const { size, modules, isFunction } = grid;
  const bitCount = codewords.length * 8;
  let bitIndex = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let step = 0; step < size; step++) {
      const row = upward ? size - 1 - step : step;
      for (let offset = 0; offset < 2; offset++) {
        const index = row * size + right - offset;
        if (isFunction[index] || bitIndex >= bitCount) continue;
        modules[index] = (codewords[bitIndex >>> 3] >>> (7 - (bitIndex & 7))) & 1;
        bitIndex++;
      }
    }
  }
}
