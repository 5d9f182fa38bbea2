/**
 * Small modules degrade to squares (docs/styling-and-scannability.md#small-modules). A rounded or
 * round shape keeps a solid core only while a module is several pixels wide: at two pixels a `dots`
 * circle is a grey smudge and the cut corners of `classy-rounded` eat half a module, and decoders
 * sample exactly those pixels. Below the measured width a shape is drawn as a square (a figure as
 * its square counterpart), which anti-aliasing then softens the way a larger shape would look.
 *
 * The widths are pixels per module (at the requested image size): the smallest at which every image
 * of the decode matrix drawn in that shape decoded with jsQR, zxing and zbar. The measurements are
 * in module-size-rule.decode-spec.ts, which also holds these values to them. The extra-rounded ring
 * needs 3 px: at 2 px zxing-cpp 1.4 missed it in large symbols (version 36 and up) and zxing-cpp 2.x
 * at one size of a gradient code (the size sweep, test/support/size-sweep.ts).
 */
import type { CornerDotType, CornerSquareType, DotType } from './style/qr-style';

export type ShapeName = DotType | `ring:${CornerSquareType}` | `centre:${CornerDotType}`;

/** Pixels per module from which each shape is drawn as it is; squares are drawn at any width. An empty table: every shape as it is. */
export type ShapeThresholds = Readonly<Partial<Record<ShapeName, number>>>;

/**
 * The width every shape needs, squares included: at one pixel per module zbar missed plain squares
 * in small images, and every other shape missed with one decoder or more (module-size-rule.decode-spec.ts).
 * Images that small are still drawn, as squares; the style check's min_size stays above it.
 */
export const MIN_PIXELS_PER_MODULE = 2;

export const SHAPE_THRESHOLDS: ShapeThresholds = {
  rounded: MIN_PIXELS_PER_MODULE,
  dots: MIN_PIXELS_PER_MODULE,
  classy: MIN_PIXELS_PER_MODULE,
  'classy-rounded': 3,
  'extra-rounded': 3,
  'ring:dot': 3,
  'ring:extra-rounded': 3,
  'centre:dot': MIN_PIXELS_PER_MODULE,
};

/** Shapes not listed (squares above all) are drawn as they are at any width. */
export function thresholdOf(shape: ShapeName, thresholds: ShapeThresholds = SHAPE_THRESHOLDS): number {
  return thresholds[shape] ?? 0;
}

/** The module shape drawn at this module width: the style's, or a square below its threshold. */
export function moduleShapeAt(type: DotType, moduleSize: number, thresholds: ShapeThresholds = SHAPE_THRESHOLDS): DotType {
  return moduleSize < thresholdOf(type, thresholds) ? 'square' : type;
}

/** The smallest module width, pixels, at which all these shapes are drawn as they are. */
export function pixelsPerModuleFor(shapes: readonly ShapeName[], thresholds: ShapeThresholds = SHAPE_THRESHOLDS): number {
  return Math.max(MIN_PIXELS_PER_MODULE, ...shapes.map((shape) => thresholdOf(shape, thresholds)));
}
