/**
 * The smallest image size at which a style is drawn as it is: every module at least as wide as
 * its shapes need (module-size-rule.ts). Below it the image still decodes, with shapes drawn
 * closer to squares. Answers the style check's `min_size`.
 */
import { resolveFinderTypes } from './style/finder-defaults';
import type { QrStyle } from './style/qr-style';
import { defaultMargin, layoutCode } from './code-layout';
import { pixelsPerModuleFor, type ShapeName } from './module-size-rule';

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

export function smallestSizeFor(style: QrStyle, moduleCount: number, minSize: number, maxSize: number): SizeForStyle {
  const pixelsPerModule = pixelsPerModuleFor(shapesOf(style));
  const shape = style.shape ?? 'square';
  for (let size = minSize; size <= maxSize; size++) {
    const layout = layoutCode(
      size,
      moduleCount,
      style.margin ?? defaultMargin(size, moduleCount, shape),
      shape,
      style.dotsOptions?.roundSize ?? true,
    );
    if (layout.moduleSize >= pixelsPerModule) {
      // Light border outside the code (outside the circle's decorative ring for shape circle).
      const quietZonePx = shape === 'circle' ? (size - layout.drawingSize) / 2 : layout.x;
      return { pixelsPerModule, size, quietZoneModules: Math.round((quietZonePx / layout.moduleSize) * 10) / 10 };
    }
  }
  return { pixelsPerModule, size: null, quietZoneModules: null };
}
