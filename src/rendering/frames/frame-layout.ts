/**
 * Frames with a call to action (docs/styling-and-scannability.md#frames): the code's canvas, quiet
 * zone included, is set whole into a larger canvas with a banner, a box or a speech bubble holding
 * one line of text. The frame only adds: it never draws over the code's canvas, and where the style's
 * margin leaves less than the quiet zone a scanner needs, light padding is added around the canvas
 * before any frame colour starts. All lengths are canvas pixels of the code's size; edges that
 * touch the code are whole pixels so a pixel-aligned code stays aligned.
 */
import type { FrameOptions, FrameType } from '../style/qr-style';
import { roundTo } from '../svg-markup';
import { DEFAULT_FRAME_FONT, frameFont, type FrameFontName } from './frame-fonts';
import { textAdvanceEm, textOutline } from './text-outline';

export const DEFAULT_FRAME_TEXT = 'SCAN ME';
export const MAX_FRAME_TEXT_LENGTH = 30;
export const DEFAULT_FRAME_COLOR = '#000000';
export const DEFAULT_FRAME_TEXT_COLOR = '#ffffff';

/** Smallest capital letter the text may be drawn with: pixels in an image, millimetres in print (about 6 pt type). */
export const MIN_TEXT_CAP_HEIGHT_PX = 7;
export const MIN_TEXT_CAP_HEIGHT_MM = 1.5;

/** Proportions of the inner square (the code's canvas plus any padding). */
const BAND_SHARE = 0.2;
const BANNER_BORDER_SHARE = 0.04;
const BOX_BORDER_SHARE = 0.02;
const BUBBLE_GAP_SHARE = 0.03;
const BUBBLE_POINTER_SHARE = 0.05;
const TEXT_SIDE_PADDING_SHARE = 0.06;
/** The text's em size at most this share of the band: room above and below for accents and descenders. */
const FONT_SIZE_SHARE_OF_BAND = 0.5;

/** A frame with its defaults applied. */
export interface ResolvedFrame {
  type: Exclude<FrameType, 'none'>;
  text: string;
  color: string;
  textColor: string;
  font: FrameFontName;
}

/** The style's frame with defaults, or null when the style draws none. */
export function resolveFrame(options: FrameOptions | undefined): ResolvedFrame | null {
  const type = options?.type ?? 'none';
  if (type === 'none') return null;
  const color = options?.color ?? DEFAULT_FRAME_COLOR;
  return {
    type,
    text: options?.text ?? DEFAULT_FRAME_TEXT,
    color,
    // In a box the text stands on the background, in the frame's colour; elsewhere on the frame's colour.
    textColor: options?.textColor ?? (type === 'box' ? color : DEFAULT_FRAME_TEXT_COLOR),
    font: (options?.font as FrameFontName | undefined) ?? DEFAULT_FRAME_FONT,
  };
}

/** The colour the text stands on: the frame's, or in a box the background's (null: transparent). */
export function textBackdrop(frame: ResolvedFrame, backgroundColor: string | null): string | null {
  return frame.type === 'box' ? backgroundColor : frame.color;
}

export interface FrameShape {
  /** SVG path data, canvas pixels, nonzero fill rule */
  d: string;
  /** hex colour, possibly with alpha */
  color: string;
}

export interface FrameLayout {
  width: number;
  height: number;
  /** where the code's canvas (codeSize × codeSize) is placed */
  codeX: number;
  codeY: number;
  /** painted before the code */
  below: FrameShape[];
  /** painted after the code: the text */
  above: FrameShape[];
  /** height of a capital letter of the text, pixels */
  textCapHeight: number;
  /** the colour along the drawing's outer edge (a print bleed continues it), null where it is transparent */
  edgeColor: string | null;
  /** how far in from the outer edge that colour reaches everywhere, corners included, pixels */
  edgeWidth: number;
}

export interface FrameLayoutInput {
  frame: ResolvedFrame;
  /** side of the code's canvas, pixels */
  codeSize: number;
  /** light padding needed around the canvas to complete the quiet zone, pixels (0 when the margin suffices) */
  padding: number;
  /** the code's background as a solid colour (a gradient's first stop), null when transparent */
  backgroundColor: string | null;
}

const n = (value: number) => roundTo(value, 2);

/** A rectangle with rounded corners, clockwise (or counter-clockwise, to cut a hole under the nonzero rule). */
export function roundedRectPath(x: number, y: number, width: number, height: number, radius: number, counterClockwise = false): string {
  const r = Math.max(0, Math.min(radius, width / 2, height / 2));
  if (r === 0) {
    return counterClockwise
      ? `M${n(x)} ${n(y)}V${n(y + height)}H${n(x + width)}V${n(y)}Z`
      : `M${n(x)} ${n(y)}H${n(x + width)}V${n(y + height)}H${n(x)}Z`;
  }
  const arc = (toX: number, toY: number) => `A${n(r)} ${n(r)} 0 0 ${counterClockwise ? 0 : 1} ${n(toX)} ${n(toY)}`;
  const right = x + width;
  const bottom = y + height;
  if (counterClockwise) {
    return (
      `M${n(x + r)} ${n(y)}${arc(x, y + r)}V${n(bottom - r)}${arc(x + r, bottom)}H${n(right - r)}` +
      `${arc(right, bottom - r)}V${n(y + r)}${arc(right - r, y)}Z`
    );
  }
  return (
    `M${n(x + r)} ${n(y)}H${n(right - r)}${arc(right, y + r)}V${n(bottom - r)}${arc(right - r, bottom)}` +
    `H${n(x + r)}${arc(x, bottom - r)}V${n(y + r)}${arc(x + r, y)}Z`
  );
}

interface Band {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The text centred in its band, as large as the band and the width allow. */
function layoutText(frame: ResolvedFrame, band: Band): { shape: FrameShape; capHeight: number } {
  const font = frameFont(frame.font);
  const sidePadding = band.width * TEXT_SIDE_PADDING_SHARE;
  const advanceEm = textAdvanceEm(font, frame.text);
  const fontSize = Math.min(band.height * FONT_SIZE_SHARE_OF_BAND, advanceEm > 0 ? (band.width - 2 * sidePadding) / advanceEm : Infinity);
  const capHeight = fontSize * font.capHeight;
  const x = band.x + (band.width - advanceEm * fontSize) / 2;
  const baseline = band.y + (band.height + capHeight) / 2;
  return { shape: { d: textOutline(font, frame.text, x, baseline, fontSize), color: frame.textColor }, capHeight };
}

/** The frame around a code: a bubble, a box or a banner (docs/styling-and-scannability.md#frames). */
export function layoutFrame(input: FrameLayoutInput): FrameLayout {
  const inner = input.codeSize + 2 * input.padding;
  const band = Math.round(inner * BAND_SHARE);
  if (input.frame.type === 'bubble') return layoutBubble(input, inner, band);
  if (input.frame.type === 'box') return layoutBox(input, inner, band);
  return layoutBanner(input, inner, band);
}

/** A speech bubble under the code, its pointer towards it; `inner` is the code's canvas plus padding, `band` the text's height. */
function layoutBubble({ frame, padding, backgroundColor }: FrameLayoutInput, inner: number, band: number): FrameLayout {
  const gap = Math.round(inner * BUBBLE_GAP_SHARE);
  const pointer = Math.max(2, Math.round(inner * BUBBLE_POINTER_SHARE));
  const bubbleTop = inner + gap + pointer;
  const height = bubbleTop + band;
  const centre = inner / 2;
  const below: FrameShape[] = [];
  if (backgroundColor) below.push({ d: roundedRectPath(0, 0, inner, height, 0), color: backgroundColor });
  // The pointer's base reaches a pixel into the bubble so no seam shows between them.
  const pointerPath = `M${n(centre)} ${n(inner + gap)}L${n(centre + pointer)} ${n(bubbleTop + 1)}H${n(centre - pointer)}Z`;
  below.push({ d: roundedRectPath(0, bubbleTop, inner, band, band * 0.2) + pointerPath, color: frame.color });
  const text = layoutText(frame, { x: 0, y: bubbleTop, width: inner, height: band });
  return {
    width: inner,
    height,
    codeX: padding,
    codeY: padding,
    below,
    above: [text.shape],
    textCapHeight: text.capHeight,
    edgeColor: backgroundColor,
    edgeWidth: 0,
  };
}

/** A border around the code with the text inside it, below the code, on the background. */
function layoutBox({ frame, padding, backgroundColor }: FrameLayoutInput, inner: number, band: number): FrameLayout {
  const border = Math.max(1, Math.round(inner * BOX_BORDER_SHARE));
  const width = inner + 2 * border;
  const height = border + inner + band + border;
  const below: FrameShape[] = [];
  if (backgroundColor) below.push({ d: roundedRectPath(border, border, inner, inner + band, border / 2), color: backgroundColor });
  below.push({
    d: roundedRectPath(0, 0, width, height, border * 1.5) + roundedRectPath(border, border, inner, inner + band, border / 2, true),
    color: frame.color,
  });
  const text = layoutText(frame, { x: border, y: border + inner, width: inner, height: band });
  return {
    width,
    height,
    codeX: border + padding,
    codeY: border + padding,
    below,
    above: [text.shape],
    textCapHeight: text.capHeight,
    edgeColor: frame.color,
    edgeWidth: border,
  };
}

/** A frame-coloured card with a band of text above or below the code (banner-top, banner-bottom). */
function layoutBanner({ frame, padding, backgroundColor }: FrameLayoutInput, inner: number, band: number): FrameLayout {
  const border = Math.max(1, Math.round(inner * BANNER_BORDER_SHARE));
  const width = inner + 2 * border;
  const height = border + inner + band;
  const matY = frame.type === 'banner-top' ? band : border;
  const bandY = frame.type === 'banner-top' ? 0 : border + inner;
  const below: FrameShape[] = [
    { d: roundedRectPath(0, 0, width, height, border * 1.5), color: frame.color },
    // Under the code's canvas: its quiet zone stays light even where its background is transparent or rounded.
    { d: roundedRectPath(border, matY, inner, inner, 0), color: backgroundColor ?? '#ffffff' },
  ];
  const text = layoutText(frame, { x: 0, y: bandY, width, height: band });
  return {
    width,
    height,
    codeX: border + padding,
    codeY: matY + padding,
    below,
    above: [text.shape],
    textCapHeight: text.capHeight,
    edgeColor: frame.color,
    edgeWidth: border,
  };
}
