/**
 * The QR module matrix of a text. A purpose-built encoder (qr-encoder/) replaces the `qrcode` and
 * `qrcode-svg` packages: it produces the same symbols several times faster, and matrix building is
 * most of the cost of a cold render (see bench/render.ts for the measured figures).
 */
import type { ErrorCorrectionLevel } from './style/qr-style';
import { encodeDataCodewords } from './qr-encoder/data-codewords';
import { applyBestMask } from './qr-encoder/mask-selection';
import { interleaveWithErrorCorrection } from './qr-encoder/reed-solomon';
import { createSymbolGrid, placeCodewords } from './qr-encoder/symbol-layout';
import { blockStructure } from './qr-encoder/symbol-tables';

export interface QrMatrix {
  /** modules per side */
  size: number;
  /** 1..40 */
  version: number;
  isDark(row: number, col: number): boolean;
  /** size*size, row-major, 1 = dark */
  modules: Uint8Array;
}

/** The text does not fit in a version-40 symbol at the requested error-correction level. */
export class QrCapacityError extends Error {
  constructor(
    readonly textLength: number,
    readonly level: ErrorCorrectionLevel,
  ) {
    super(`Text of ${textLength} characters does not fit in a QR code at error correction level ${level}`);
    this.name = 'QrCapacityError';
  }
}

/** The smallest version is the standard's (1) unless the caller asks for a larger one. */
export function buildQrMatrix(text: string, level: ErrorCorrectionLevel, minVersion = 1): QrMatrix {
  const data = encodeDataCodewords(text, level, minVersion);
  if (!data) throw new QrCapacityError(text.length, level);
  const { version } = data;
  const codewords = interleaveWithErrorCorrection(data.codewords, blockStructure(version, level));
  const grid = createSymbolGrid(version, level);
  placeCodewords(grid, codewords);
  applyBestMask(grid, level);
  const { size, modules } = grid;
  return {
    size,
    version,
    modules,
    isDark: (row, col) => row >= 0 && col >= 0 && row < size && col < size && modules[row * size + col] === 1,
  };
}
