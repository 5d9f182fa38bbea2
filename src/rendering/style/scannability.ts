/**
 * Scannability guard (docs/styling-and-scannability.md#scannability-guards): refuses styles a phone
 * is unlikely to read, naming the field and the reason. Runs on a style that already has the right
 * shape. Only what the user set is refused; unset parts get scannable defaults (finder-defaults.ts).
 */
import { type FieldError } from '../../common/validation/field-error';
import { type ErrorCorrectionLevel, type Gradient, type PaintColorValue, type QrStyle, resolveErrorCorrectionLevel } from './qr-style';
import { compositeOver, contrastRatio, parseHexColor, relativeLuminance, type RgbaColor, WHITE } from './rgba-color';

/**
 * WCAG 2.1 asks 3:1 of graphical objects (SC 1.4.11), the closest analogue of a code's modules.
 * Camera decoders binarise with a local threshold and read lower contrast in good light, but print,
 * glare and cheap screens eat into it; 3:1 keeps that headroom while allowing most brand colours.
 */
export const MIN_CONTRAST_RATIO = 3;

/** Share of codewords each level can restore (ISO/IEC 18004). */
export const RECOVERABLE_CODEWORD_SHARE: Readonly<Record<ErrorCorrectionLevel, number>> = {
  L: 0.07,
  M: 0.15,
  Q: 0.25,
  H: 0.3,
};

/**
 * The logo may cover only this part of what the level can restore: the area it covers is measured
 * in modules of the whole code, but finder, timing and alignment patterns hold no data, so the
 * damaged share of data modules is larger; a logo edge crossing a codeword spoils all of it; and a
 * scan adds errors of its own. 0.6 still admits the default logo (imageSize 0.4, 16% of the code)
 * at level H, which is chosen automatically for codes with a logo.
 */
export const LOGO_SAFETY_FACTOR = 0.6;

/** imageSize when the style gives none (as in qr-code-styling). */
export const DEFAULT_LOGO_IMAGE_SIZE = 0.4;

/**
 * imageOptions.margin is in pixels while imageSize is relative; the margin is converted at this
 * code width, the API's default image size and qr-code-styling's default canvas.
 */
export const LOGO_MARGIN_REFERENCE_WIDTH_PX = 300;

/** What qr-code-styling paints when a style says nothing. */
const DEFAULT_DOTS_COLOR = '#000000';
const DEFAULT_BACKGROUND_COLOR = '#ffffff';

/** One colour the code is painted with, and the request field it came from (none for a default). */
interface PaintColor {
  field?: string;
  color: PaintColorValue;
}

export function findScannabilityProblems(style: QrStyle): FieldError[] {
  const problems = findContrastProblems(style);
  const finderProblem = findLooseFinderProblem(style);
  if (finderProblem) problems.push(finderProblem);
  const logoProblem = findLogoCoverageProblem(style);
  if (logoProblem) problems.push(logoProblem);
  return problems;
}

/**
 * Finder parts the user set that scanners miss (the decode matrix): a centre of
 * `dots` is nine loose circles, which zxing and zbar miss in most styles and sizes; a ring of
 * `dots` around a round `dot` centre is missed by jsQR at every size. A ring of loose dots around a
 * solid square-cornered centre decodes, so it is allowed. Unset parts get solid defaults instead
 * (finder-defaults.ts), and are never refused.
 */
function findLooseFinderProblem(style: QrStyle): FieldError | undefined {
  const centre = style.cornersDotOptions?.type;
  if (centre === 'dots') {
    const field = 'style.cornersDotOptions.type';
    return { field, message: `${field}: a finder centre drawn as nine loose dots is not found by scanners; use dot or square, or leave it unset` };
  }
  if (centre === 'dot' && style.cornersSquareOptions?.type === 'dots') {
    const field = 'style.cornersSquareOptions.type';
    return {
      field,
      message:
        `${field}: a finder ring of loose dots around a round centre is not found by scanners; ` +
        'use dot or extra-rounded for the ring, or a square centre',
    };
  }
  return undefined;
}

/**
 * Every foreground colour (dots, and the corners where they set their own paint; gradients at each
 * stop) must be darker than every background colour by MIN_CONTRAST_RATIO. Light-on-dark codes are
 * refused even with enough contrast: the standard allows them, but many scanners (older ZXing
 * builds, in-app and point-of-sale readers) only look for dark modules and fail on them.
 */
function findContrastProblems(style: QrStyle): FieldError[] {
  const foreground = foregroundColors(style);
  const background = backgroundColors(style);

  const problems = new Map<string, string>();
  for (const dark of foreground) {
    for (const light of background) {
      // Default against default cannot fail; otherwise blame the colour the user chose.
      const field = dark.field ?? light.field;
      if (field === undefined || problems.has(field)) continue;
      const problem = judgeContrast(field, dark, light);
      if (problem) problems.set(field, problem);
    }
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}

/** The lowest WCAG contrast ratio between any foreground and any background colour of the style. */
export function lowestContrastRatio(style: QrStyle): number {
  let lowest = Infinity;
  for (const dark of foregroundColors(style)) {
    for (const light of backgroundColors(style)) {
      const background = opaqueBackground(light.color);
      lowest = Math.min(lowest, contrastRatio(compositeOver(parseHexColor(dark.color), background), background));
    }
  }
  return lowest;
}

function foregroundColors(style: QrStyle): PaintColor[] {
  return [
    ...(paintColors(style.dotsOptions, 'style.dotsOptions') ?? [{ color: DEFAULT_DOTS_COLOR }]),
    // Corners without a paint of their own inherit the dots' paint, already counted.
    ...(paintColors(style.cornersSquareOptions, 'style.cornersSquareOptions') ?? []),
    ...(paintColors(style.cornersDotOptions, 'style.cornersDotOptions') ?? []),
  ];
}

function backgroundColors(style: QrStyle): PaintColor[] {
  return paintColors(style.backgroundOptions, 'style.backgroundOptions') ?? [{ color: DEFAULT_BACKGROUND_COLOR }];
}

/** Why this pair fails, as a message about `field`, or undefined when it is fine. */
function judgeContrast(field: string, dark: PaintColor, light: PaintColor): string | undefined {
  const backgroundColor = opaqueBackground(light.color);
  // 'transparent' is not allowed for the foreground by the schema, so this is a hex colour.
  const foregroundColor = compositeOver(parseHexColor(dark.color), backgroundColor);
  const against = dark.field === undefined ? `the default dots color ${dark.color}` : describeBackground(light);
  const ratio = contrastRatio(foregroundColor, backgroundColor);
  if (ratio < MIN_CONTRAST_RATIO) {
    // Rounded down, so a ratio just under the threshold never reads as "3:1 is below 3:1".
    const shown = Math.floor(ratio * 10) / 10;
    return `${field}: contrast ${shown}:1 against ${against} is below ${MIN_CONTRAST_RATIO}:1; scanners may fail`;
  }
  if (relativeLuminance(foregroundColor) > relativeLuminance(backgroundColor)) {
    return `${field} is lighter than ${against}; light-on-dark (inverted) codes are not read by many scanners`;
  }
  return undefined;
}

/** A transparent background is judged on white, the usual page; a translucent one is laid on white. */
function opaqueBackground(color: PaintColorValue): RgbaColor {
  return color === 'transparent' ? WHITE : compositeOver(parseHexColor(color), WHITE);
}

function describeBackground(light: PaintColor): string {
  if (light.color === 'transparent') return 'the transparent background (judged on white)';
  return `the background ${light.color}`;
}

/** The colours of one options object: its gradient's stops if it has one (it wins), else its colour. */
function paintColors(options: { color?: PaintColorValue; gradient?: Gradient } | undefined, path: string): PaintColor[] | undefined {
  if (options?.gradient) {
    return options.gradient.colorStops.map((stop, index) => ({
      field: `${path}.gradient.colorStops[${index}].color`,
      color: stop.color,
    }));
  }
  if (options?.color !== undefined) return [{ field: `${path}.color`, color: options.color }];
  return undefined;
}

/**
 * The logo hides a centred square of side imageSize (plus its margin on each side) of the code, so
 * it covers that side squared of the code's area; this must stay within the resolved level's
 * recoverable share times LOGO_SAFETY_FACTOR. This follows the contract's reading of imageSize (a
 * fraction of the code's side); qr-code-styling itself shrinks the hidden area with the level, so
 * a style accepted here is also safe there.
 */
export function logoCoverage(style: QrStyle): { coverage: number; budget: number } | null {
  if (!style.image) return null;
  const level = resolveErrorCorrectionLevel(style);
  const imageSize = style.imageOptions?.imageSize ?? DEFAULT_LOGO_IMAGE_SIZE;
  const marginPx = style.imageOptions?.margin ?? 0;
  const coveredSide = Math.min(1, imageSize + (2 * marginPx) / LOGO_MARGIN_REFERENCE_WIDTH_PX);
  return { coverage: coveredSide ** 2, budget: RECOVERABLE_CODEWORD_SHARE[level] * LOGO_SAFETY_FACTOR };
}

function findLogoCoverageProblem(style: QrStyle): FieldError | undefined {
  const logo = logoCoverage(style);
  if (!logo) return undefined;
  const level = resolveErrorCorrectionLevel(style);
  const { coverage, budget: safeCoverage } = logo;
  // The tolerance keeps exact boundary values (0.3² against 0.15 × 0.6) on the accepted side.
  if (coverage <= safeCoverage + 1e-9) return undefined;

  const remedy = level === 'H' ? 'use a smaller logo' : 'use a smaller logo or error correction level H';
  const field = blamedLogoField(style);
  return {
    field,
    message:
      `${field}: the logo covers ${percent(coverage)} of the code but error correction level ${level} ` +
      `can safely recover only ${percent(safeCoverage)}; ${remedy}`,
  };
}

/** The field the user set that made the logo too large for its level. */
function blamedLogoField(style: QrStyle): string {
  if (style.imageOptions?.imageSize !== undefined) return 'style.imageOptions.imageSize';
  if (style.qrOptions?.errorCorrectionLevel !== undefined) return 'style.qrOptions.errorCorrectionLevel';
  if (style.imageOptions?.margin !== undefined) return 'style.imageOptions.margin';
  return 'style.image';
}

function percent(share: number): string {
  return `${Number((share * 100).toFixed(1))}%`;
}
