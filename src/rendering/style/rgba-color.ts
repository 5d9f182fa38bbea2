/**
 * Colour arithmetic for the scannability guard: parsing the style's hex colours, alpha compositing
 * and WCAG 2 relative luminance / contrast ratio.
 */

/** Channels 0..255, alpha 0..1. */
export interface RgbaColor {
  r: number;
  g: number;
  b: number;
  a: number;
}

export const WHITE: RgbaColor = { r: 255, g: 255, b: 255, a: 1 };

export const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/** Parses `#rgb`, `#rrggbb` or `#rrggbbaa`; the caller has already checked the form with HEX_COLOR. */
export function parseHexColor(hex: string): RgbaColor {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join('') : hex.slice(1);
  const channel = (index: number) => parseInt(digits.slice(index * 2, index * 2 + 2), 16);
  return { r: channel(0), g: channel(1), b: channel(2), a: digits.length === 8 ? channel(3) / 255 : 1 };
}

/**
 * `top` painted over the opaque `bottom`, blended per channel in sRGB space as browsers and SVG
 * renderers do by default.
 */
export function compositeOver(top: RgbaColor, bottom: RgbaColor): RgbaColor {
  const blend = (over: number, under: number) => over * top.a + under * (1 - top.a);
  return { r: blend(top.r, bottom.r), g: blend(top.g, bottom.g), b: blend(top.b, bottom.b), a: 1 };
}

/** WCAG 2 relative luminance of an opaque colour, 0 (black) .. 1 (white). */
export function relativeLuminance(color: RgbaColor): number {
  const linear = (channel: number) => {
    const srgb = channel / 255;
    return srgb <= 0.04045 ? srgb / 12.92 : ((srgb + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b);
}

/** WCAG 2 contrast ratio of two opaque colours, 1 .. 21. */
export function contrastRatio(first: RgbaColor, second: RgbaColor): number {
  const [lighter, darker] = [relativeLuminance(first), relativeLuminance(second)].sort((x, y) => y - x);
  return (lighter + 0.05) / (darker + 0.05);
}
