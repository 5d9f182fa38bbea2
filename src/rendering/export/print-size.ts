/**
 * Sizes of exported files (docs/styling-and-scannability.md#print-sizes): in pixels (`size`), or
 * as a printed width in millimetres (`width_mm`, the code with its quiet zone; a frame adds to it)
 * at a resolution (`dpi`). The code is laid out on a canvas of whole pixels at that resolution, the
 * same drawing the PNG gets, so the PDF and the PNG of one request agree module for module.
 */
import { defaultMargin, layoutCode, type CodeLayout } from '../code-layout';
import type { QrStyle } from '../style/qr-style';

export const MIN_EXPORT_SIZE = 100;
export const MAX_EXPORT_SIZE = 4000;
export const MIN_WIDTH_MM = 10;
export const MAX_WIDTH_MM = 1000;
export const MIN_DPI = 72;
export const MAX_DPI = 1200;
export const DEFAULT_DPI = 300;
export const DEFAULT_EXPORT_SIZE = 1000;
export const MAX_BLEED_MM = 20;

/**
 * The narrowest module a print may have: 0.33 mm, the X-dimension of an EAN-13 at 100 %
 * magnification (GS1's nominal retail barcode). ISO/IEC 18004 leaves the module size to the
 * application; GS1 asks 2D symbols for more than linear ones (optics of image scanners), so this is
 * a floor, not a target. docs/styling-and-scannability.md#print-sizes gives the reasoning.
 */
export const MIN_MODULE_MM = 0.33;

const MM_PER_INCH = 25.4;

export function pixelsForWidth(widthMm: number, dpi: number): number {
  return Math.round((widthMm / MM_PER_INCH) * dpi);
}

/** The code laid out at `size` pixels as the renderer lays it out. */
export function layoutAt(style: QrStyle, moduleCount: number, size: number): CodeLayout {
  const shape = style.shape ?? 'square';
  return layoutCode(size, moduleCount, style.margin ?? defaultMargin(size, moduleCount, shape), shape, style.dotsOptions?.roundSize ?? true);
}

/** Module width in millimetres of a code laid out at `size` pixels printed `widthMm` wide. */
export function moduleSizeMm(style: QrStyle, moduleCount: number, size: number, widthMm: number): number {
  return (layoutAt(style, moduleCount, size).moduleSize * widthMm) / size;
}

/**
 * The smallest whole `width_mm` (within the range) at this dpi whose modules are at least
 * MIN_MODULE_MM wide, or null when even the widest is not enough.
 */
export function smallestPrintWidthMm(style: QrStyle, moduleCount: number, dpi: number): number | null {
  // Square modules plus the default quiet zone give the lower bound; flooring to whole pixels and the
  // circle shape only make modules narrower, so the search starts there and walks up.
  const start = Math.max(MIN_WIDTH_MM, Math.floor(MIN_MODULE_MM * moduleCount));
  for (let widthMm = start; widthMm <= MAX_WIDTH_MM; widthMm++) {
    const size = pixelsForWidth(widthMm, dpi);
    if (size > 0 && moduleSizeMm(style, moduleCount, size, widthMm) >= MIN_MODULE_MM) return widthMm;
  }
  return null;
}

/** Rounded for a header or a message: a tenth of a micrometre says nothing more. */
export function roundMm(value: number): number {
  return Math.round(value * 1000) / 1000;
}
