/**
 * Smallest image sizes of a code. `smallestSizeFor` (the style check's `min_size`): every module at
 * least as wide as its shapes need (module-size-rule.ts); below it shapes are drawn closer to
 * squares. `smallestDecodableSize` (the image's X-QR-Min-Decodable-Size header): modules at least
 * MIN_PIXELS_PER_MODULE wide, the narrowest at which the measurements read every shape (drawn as a
 * square where its own threshold is higher), and at least one module of light border left where
 * the margin is cut back; narrower modules may not decode, and below one pixel a module no decoder
 * reads them (docs/styling-and-scannability.md#which-sizes-decode).
 */
import { resolveFinderTypes } from './style/finder-defaults';
import { resolveErrorCorrectionLevel, type QrStyle } from './style/qr-style';
import { defaultMargin, layoutCode, type CodeLayout } from './code-layout';
import { minimumDrawnVersion } from './drawn-version';
import { MIN_PIXELS_PER_MODULE, pixelsPerModuleFor, type ShapeName } from './module-size-rule';
import { encodeDataCodewords } from './qr-encoder/data-codewords';
import { symbolSize } from './qr-encoder/symbol-tables';

/** The module shapes a style draws: data modules, finder ring and centre (after scannable defaults). */
export function shapesOf(style: QrStyle): ShapeName[] {
  const dotsType = style.dotsOptions?.type ?? 'square';
  const { cornersSquareType, cornersDotType } = resolveFinderTypes(style);
  const ring: ShapeName =
    cornersSquareType === 'dot' || cornersSquareType === 'extra-rounded' || cornersSquareType === 'square'
      ? `ring:${cornersSquareType}`
      : (cornersSquareType ?? dotsType);
  const centre: ShapeName = cornersDotType === 'dot' || cornersDotType === 'square' ? `centre:${cornersDotType}` : (cornersDotType ?? dotsType);
  return [dotsType, ring, centre];
}

export interface SizeForStyle {
  /** pixels per module the style's shapes need */
  pixelsPerModule: number;
  /** smallest image size within [minSize, maxSize] that gives them, or null when none does */
  size: number | null;
  /** the quiet zone at that size, in modules */
  quietZoneModules: number | null;
}

/**
 * Whether a square code keeps at least one module of light border at this layout: where its margin
 * is cut back to nothing it touches the image's edge, and zbar missed such codes at 2 px per module
 * (the size sweep, test/support/size-sweep.ts). A circle keeps its decorative ring around the code.
 */
function keepsBorder(layout: CodeLayout, shape: string): boolean {
  return shape === 'circle' || layout.x >= layout.moduleSize;
}

/**
 * The smallest size within [minSize, maxSize] whose modules are at least `pixelsPerModule` wide,
 * laid out as the renderer does, with a light border of one module at least.
 */
function smallestSizeGiving(
  pixelsPerModule: number,
  style: QrStyle,
  moduleCount: number,
  minSize: number,
  maxSize: number,
): { size: number; layout: CodeLayout } | null {
  const shape = style.shape ?? 'square';
  for (let size = minSize; size <= maxSize; size++) {
    const margin = style.margin ?? defaultMargin(size, moduleCount, shape);
    const layout = layoutCode(size, moduleCount, margin, shape, style.dotsOptions?.roundSize ?? true);
    if (layout.moduleSize >= pixelsPerModule && keepsBorder(layout, shape)) return { size, layout };
  }
  return null;
}

export function smallestSizeFor(style: QrStyle, moduleCount: number, minSize: number, maxSize: number): SizeForStyle {
  const pixelsPerModule = pixelsPerModuleFor(shapesOf(style));
  const found = smallestSizeGiving(pixelsPerModule, style, moduleCount, minSize, maxSize);
  if (!found) return { pixelsPerModule, size: null, quietZoneModules: null };
  const { size, layout } = found;
  // Light border outside the code (outside the circle's decorative ring for shape circle).
  const quietZonePx = style.shape === 'circle' ? (size - layout.drawingSize) / 2 : layout.x;
  return { pixelsPerModule, size, quietZoneModules: Math.round((quietZonePx / layout.moduleSize) * 10) / 10 };
}

/** Modules per side of the symbol drawn for this text and style (the renderer's version choice). */
export function drawnModuleCount(text: string, style: QrStyle): number | null {
  const data = encodeDataCodewords(text, resolveErrorCorrectionLevel(style), minimumDrawnVersion(style));
  return data ? symbolSize(data.version) : null;
}

/** The smallest size within [minSize, maxSize] at which the image of this text and style decodes, or null when none does. */
export function smallestDecodableSize(text: string, style: QrStyle, minSize: number, maxSize: number): number | null {
  const moduleCount = drawnModuleCount(text, style);
  if (moduleCount === null) return null;
  return smallestSizeGiving(MIN_PIXELS_PER_MODULE, style, moduleCount, minSize, maxSize)?.size ?? null;
}
