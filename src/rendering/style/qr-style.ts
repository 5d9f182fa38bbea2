/**
 * The style object of a QR code (request field `style`, stored as `style_config`): the
 * qr-code-styling v1.9 option schema (docs/styling-and-scannability.md), with gradient rotation in
 * degrees (the API's interface says degrees; qr-code-styling uses radians). Every key is optional; an empty object is the plain code.
 * This file is the contract between style validation (style/) and the renderer (render/).
 */

export const DOT_TYPES = ['square', 'dots', 'rounded', 'classy', 'classy-rounded', 'extra-rounded'] as const;
export type DotType = (typeof DOT_TYPES)[number];

export const CORNER_SQUARE_TYPES = ['square', 'dot', 'extra-rounded', ...DOT_TYPES] as const;
export type CornerSquareType = (typeof CORNER_SQUARE_TYPES)[number];

export const CORNER_DOT_TYPES = ['square', 'dot', ...DOT_TYPES] as const;
export type CornerDotType = (typeof CORNER_DOT_TYPES)[number];

export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;
export type ErrorCorrectionLevel = (typeof ERROR_CORRECTION_LEVELS)[number];

export const GRADIENT_TYPES = ['linear', 'radial'] as const;
export type GradientType = (typeof GRADIENT_TYPES)[number];

export const SHAPES = ['square', 'circle'] as const;
export type Shape = (typeof SHAPES)[number];

/** `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export type HexColor = string;
/** A hex colour, or "transparent" (backgrounds only). */
export type PaintColorValue = string;

export interface ColorStop {
  /** 0..1 */
  offset: number;
  color: HexColor;
}

export interface Gradient {
  /** default linear */
  type?: GradientType;
  /** degrees, default 0 */
  rotation?: number;
  /** non-empty */
  colorStops: ColorStop[];
}

export interface DotsOptions {
  type?: DotType;
  color?: PaintColorValue;
  gradient?: Gradient;
  roundSize?: boolean;
}

export interface CornersSquareOptions {
  type?: CornerSquareType;
  color?: PaintColorValue;
  gradient?: Gradient;
}

export interface CornersDotOptions {
  type?: CornerDotType;
  color?: PaintColorValue;
  gradient?: Gradient;
}

export interface BackgroundOptions {
  /** a hex colour or "transparent" */
  color?: PaintColorValue;
  gradient?: Gradient;
  /** 0..1: corner rounding of the background square */
  round?: number;
}

export interface ImageOptions {
  hideBackgroundDots?: boolean;
  /** 0..1 of the code's size, default 0.4 */
  imageSize?: number;
  /** margin around the logo, in pixels of qr-code-styling's coordinate space */
  margin?: number;
}

export const FRAME_TYPES = ['none', 'banner-bottom', 'banner-top', 'box', 'bubble'] as const;
export type FrameType = (typeof FRAME_TYPES)[number];

/** The call to action around the code (src/rendering/frames/, docs/styling-and-scannability.md#frames). */
export interface FrameOptions {
  /** default none */
  type?: FrameType;
  /** one line, at most 30 characters, drawn as outlines; default "SCAN ME" */
  text?: string;
  /** the frame's colour (banner, border or bubble); default #000000 */
  color?: HexColor;
  /** the text's colour; default #ffffff, for `box` (text on the background) the frame's colour */
  textColor?: HexColor;
  /** a bundled font (FRAME_FONT_NAMES), default noto-sans */
  font?: string;
}

export interface QrOptions {
  errorCorrectionLevel?: ErrorCorrectionLevel;
}

export interface QrStyle {
  dotsOptions?: DotsOptions;
  cornersSquareOptions?: CornersSquareOptions;
  cornersDotOptions?: CornersDotOptions;
  backgroundOptions?: BackgroundOptions;
  /** logo: a `data:` URI of PNG, JPEG or WebP, at most 256 KB */
  image?: string;
  imageOptions?: ImageOptions;
  qrOptions?: QrOptions;
  /** quiet zone in pixels at the requested size's scale */
  margin?: number;
  shape?: Shape;
  frameOptions?: FrameOptions;
}

/** Error correction: the style's choice, else H with a logo (it hides modules), else M. */
export function resolveErrorCorrectionLevel(style: QrStyle): ErrorCorrectionLevel {
  return style.qrOptions?.errorCorrectionLevel ?? (style.image ? 'H' : 'M');
}
