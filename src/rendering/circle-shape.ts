/**
 * The `circle` shape: the code sits inside a circle and qr-code-styling fills the rest of the
 * circle with decorative modules copied from the code, so the whole looks like a round code. The
 * modules are laid on an extended grid around the code (same module size) and a ring of light
 * modules is kept clear around the code so that scanners still find its edges.
 */
import type { QrMatrix } from './qr-matrix';
import type { CodeLayout } from './code-layout';

/** Light modules kept between the code and the decorative ones (qr-code-styling keeps one). */
export const CIRCLE_CLEARANCE = 1;

export interface ExtendedGrid {
  /** modules per side of the extended grid */
  size: number;
  /** modules the grid extends beyond the code on each side */
  border: number;
  /** size*size, 1 = decorative dark module */
  decorative: Uint8Array;
}

/**
 * Decorative modules: inside the circle, outside the clear ring, each copying a code module —
 * qr-code-styling's pick, the module at the transposed position folded back into the code.
 */
export function decorativeModules(matrix: QrMatrix, layout: CodeLayout): ExtendedGrid {
  const count = matrix.size;
  const border = Math.max(0, Math.floor((layout.drawingSize / layout.moduleSize - count) / 2));
  const size = count + border * 2;
  const centre = layout.pixelAligned ? Math.floor(size / 2) : size / 2;
  const clearFrom = border - CIRCLE_CLEARANCE;
  const clearTo = border + count - 1 + CIRCLE_CLEARANCE;
  const fold = (index: number): number => (index < border * 2 ? index : index >= count ? index - border * 2 : index - border);

  const decorative = new Uint8Array(size * size);
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const nearCode = row >= clearFrom && row <= clearTo && col >= clearFrom && col <= clearTo;
      if (nearCode || Math.hypot(row - centre, col - centre) > centre) continue;
      if (matrix.isDark(fold(col), fold(row))) decorative[row * size + col] = 1;
    }
  }
  return { size, border, decorative };
}
