/**
 * Scannable defaults for the finder patterns (docs/styling-and-scannability.md#scannable-defaults-before-refusals).
 *
 * qr-code-styling draws an unset corner type as modules of the dots type. With `dots` (each module
 * its own circle) that turns the finder's 7×7 ring and 3×3 centre into loose circles, which zxing
 * and zbar do not find as finder patterns. When the user left that corner type unset, a solid figure
 * in keeping with round dots is drawn instead: an `extra-rounded` ring, and a centre matching the
 * ring: `dot` inside a round ring (`dot`, `extra-rounded`), `square` inside a square-cornered one.
 * These are the pairs that decoded with jsQR, zxing and zbar at every size of the decode matrix; a
 * `dot` centre inside a square-cornered ring is not (jsQR misses it at 1000 px with a logo).
 * A corner type the user set is drawn as set.
 */
import type { CornerDotType, CornerSquareType, DotType, QrStyle } from './qr-style';

/** Module shapes that draw every module apart from its neighbours, so a finder of them falls apart. */
export const LOOSE_MODULE_TYPES: readonly DotType[] = ['dots'];

export const FINDER_RING_DEFAULT: CornerSquareType = 'extra-rounded';
const ROUND_RINGS: readonly CornerSquareType[] = ['dot', 'extra-rounded'];

/** A value the service chose for a field the style left unset, and why. */
export interface AppliedDefault {
  field: string;
  value: string;
  reason: string;
}

export interface FinderTypes {
  /** undefined: the ring is drawn as modules of the dots type */
  cornersSquareType: CornerSquareType | undefined;
  /** undefined: the centre is drawn as modules of the dots type */
  cornersDotType: CornerDotType | undefined;
  applied: AppliedDefault[];
}

export function resolveFinderTypes(style: QrStyle): FinderTypes {
  const dotsType = style.dotsOptions?.type ?? 'square';
  const loose = LOOSE_MODULE_TYPES.includes(dotsType);
  const applied: AppliedDefault[] = [];
  let cornersSquareType = style.cornersSquareOptions?.type;
  let cornersDotType = style.cornersDotOptions?.type;
  if (loose && cornersSquareType === undefined) {
    cornersSquareType = FINDER_RING_DEFAULT;
    applied.push({
      field: 'style.cornersSquareOptions.type',
      value: FINDER_RING_DEFAULT,
      reason: `unset, and ${dotsType} modules would draw the finder ring as loose circles that scanners do not find`,
    });
  }
  if (loose && cornersDotType === undefined) {
    cornersDotType = cornersSquareType && ROUND_RINGS.includes(cornersSquareType) ? 'dot' : 'square';
    applied.push({
      field: 'style.cornersDotOptions.type',
      value: cornersDotType,
      reason: `unset, and ${dotsType} modules would draw the finder centre as nine loose circles that scanners do not find`,
    });
  }
  return { cornersSquareType, cornersDotType, applied };
}
