/**
 * The allowed shape of the request field `style` (docs/styling-and-scannability.md), as data: checkStyle walks this tree,
 * and a test holds StyleDto's OpenAPI schema to it so docs and validation cannot drift apart.
 */
import { CORNER_DOT_TYPES, CORNER_SQUARE_TYPES, DOT_TYPES, ERROR_CORRECTION_LEVELS, FRAME_TYPES, GRADIENT_TYPES, SHAPES } from './qr-style';
import { FRAME_FONT_NAMES } from '../frames/frame-fonts';
import { MAX_FRAME_TEXT_LENGTH } from '../frames/frame-layout';

export const MAX_COLOR_STOPS = 10;
/** One full turn either way; anything beyond is the same angle written differently. */
export const MAX_GRADIENT_ROTATION_DEGREES = 360;
/** Quiet zone in pixels. Bounded so a stored style cannot ask for an absurd canvas. */
export const MAX_MARGIN_PX = 100;
/** Padding around the logo, in pixels of qr-code-styling's coordinate space. */
export const MAX_LOGO_MARGIN_PX = 100;

export type StyleRule = ObjectRule | ChoiceRule | ColorRule | NumberRule | BooleanRule | ListRule | LogoRule | TextRule;

export interface ObjectRule {
  kind: 'object';
  fields: Readonly<Record<string, StyleRule>>;
  required?: readonly string[];
}

export interface ChoiceRule {
  kind: 'choice';
  values: readonly string[];
}

export interface ColorRule {
  kind: 'color';
  /** Whether the keyword "transparent" is accepted besides hex colours. */
  allowsTransparent: boolean;
}

export interface NumberRule {
  kind: 'number';
  min: number;
  max: number;
  minExclusive?: boolean;
  integer?: boolean;
}

export interface BooleanRule {
  kind: 'boolean';
}

export interface ListRule {
  kind: 'list';
  items: StyleRule;
  minItems: number;
  maxItems: number;
}

/** A string of 1 to maxLength characters (code points). */
export interface TextRule {
  kind: 'text';
  maxLength: number;
}

/** A `data:` URI logo, see logo-data-uri.ts. */
export interface LogoRule {
  kind: 'logo';
}

/** CORNER_SQUARE_TYPES lists some names twice (its own and the dots types); each is shown once. */
function choice(values: readonly string[]): ChoiceRule {
  return { kind: 'choice', values: [...new Set(values)] };
}

const hexColor: ColorRule = { kind: 'color', allowsTransparent: false };

const gradient: ObjectRule = {
  kind: 'object',
  fields: {
    type: choice(GRADIENT_TYPES),
    rotation: { kind: 'number', min: -MAX_GRADIENT_ROTATION_DEGREES, max: MAX_GRADIENT_ROTATION_DEGREES },
    colorStops: {
      kind: 'list',
      minItems: 1,
      maxItems: MAX_COLOR_STOPS,
      items: {
        kind: 'object',
        fields: { offset: { kind: 'number', min: 0, max: 1 }, color: hexColor },
        required: ['offset', 'color'],
      },
    },
  },
  required: ['colorStops'],
};

export const STYLE_RULE: ObjectRule = {
  kind: 'object',
  fields: {
    dotsOptions: {
      kind: 'object',
      fields: { type: choice(DOT_TYPES), color: hexColor, gradient, roundSize: { kind: 'boolean' } },
    },
    cornersSquareOptions: {
      kind: 'object',
      fields: { type: choice(CORNER_SQUARE_TYPES), color: hexColor, gradient },
    },
    cornersDotOptions: {
      kind: 'object',
      fields: { type: choice(CORNER_DOT_TYPES), color: hexColor, gradient },
    },
    backgroundOptions: {
      kind: 'object',
      fields: {
        color: { kind: 'color', allowsTransparent: true },
        gradient,
        round: { kind: 'number', min: 0, max: 1 },
      },
    },
    image: { kind: 'logo' },
    imageOptions: {
      kind: 'object',
      fields: {
        hideBackgroundDots: { kind: 'boolean' },
        imageSize: { kind: 'number', min: 0, minExclusive: true, max: 1 },
        margin: { kind: 'number', min: 0, max: MAX_LOGO_MARGIN_PX, integer: true },
      },
    },
    qrOptions: {
      kind: 'object',
      fields: { errorCorrectionLevel: choice(ERROR_CORRECTION_LEVELS) },
    },
    margin: { kind: 'number', min: 0, max: MAX_MARGIN_PX, integer: true },
    shape: choice(SHAPES),
    frameOptions: {
      kind: 'object',
      fields: {
        type: choice(FRAME_TYPES),
        text: { kind: 'text', maxLength: MAX_FRAME_TEXT_LENGTH },
        color: hexColor,
        textColor: hexColor,
        font: choice(FRAME_FONT_NAMES),
      },
    },
  },
};
