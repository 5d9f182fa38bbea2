export interface GeoContent {
  latitude: number;
  longitude: number;
}

/** Seven decimal places are about 1 cm on the ground: finer digits are floating-point noise. */
const COORDINATE_DECIMALS = 7;

/** A `geo:` URI (RFC 5870) in plain decimal notation: readers do not understand `1e-7`. */
export function encodeGeo(content: GeoContent): string {
  return `geo:${formatCoordinate(content.latitude)},${formatCoordinate(content.longitude)}`;
}

function formatCoordinate(degrees: number): string {
  // toFixed never uses exponent notation below 1e21, far beyond any coordinate.
  const fixed = degrees.toFixed(COORDINATE_DECIMALS);
  const withoutTrailingZeros = fixed.replace(/0+$/, '').replace(/\.$/, '');
  return withoutTrailingZeros === '-0' ? '0' : withoutTrailingZeros;
}
