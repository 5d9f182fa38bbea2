/**
 * fast-check generators of random styles the service accepts, with random texts and sizes: the
 * input of the decode property test and its 10,000-run bench (bench/decode-property.ts).
 */
import fc from 'fast-check';
import { badgeLogo, checkeredLogo } from '../../src/rendering/__fixtures__/png-data-uri';
import { checkStyle } from '../../src/rendering/style/check-style';
import {
  CORNER_DOT_TYPES,
  CORNER_SQUARE_TYPES,
  DOT_TYPES,
  ERROR_CORRECTION_LEVELS,
  type Gradient,
  type QrStyle,
} from '../../src/rendering/style/qr-style';

const hex = (channels: readonly number[]) => `#${channels.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
const darkColor = fc.tuple(fc.integer({ min: 0, max: 130 }), fc.integer({ min: 0, max: 130 }), fc.integer({ min: 0, max: 130 })).map(hex);
const lightColor = fc.tuple(fc.integer({ min: 190, max: 255 }), fc.integer({ min: 190, max: 255 }), fc.integer({ min: 190, max: 255 })).map(hex);

const gradientOf = (color: fc.Arbitrary<string>): fc.Arbitrary<Gradient> =>
  fc.record({
    type: fc.constantFrom('linear' as const, 'radial' as const),
    rotation: fc.integer({ min: -360, max: 360 }),
    colorStops: fc.array(fc.record({ offset: fc.double({ min: 0, max: 1, noNaN: true }), color }), { minLength: 1, maxLength: 3 }),
  });

const paintOf = (color: fc.Arbitrary<string>) =>
  fc.oneof(
    fc.constant({}),
    color.map((value) => ({ color: value })),
    gradientOf(color).map((gradient) => ({ gradient })),
  );

const logo = fc.oneof(fc.constant(badgeLogo()), fc.constant(checkeredLogo()), fc.constant(checkeredLogo(40, 16)));

const styleCandidate: fc.Arbitrary<QrStyle> = fc
  .record(
    {
      dotsType: fc.constantFrom(...DOT_TYPES),
      dotsPaint: paintOf(darkColor),
      roundSize: fc.boolean(),
      ring: fc.option(fc.constantFrom(...new Set(CORNER_SQUARE_TYPES)), { nil: undefined }),
      ringPaint: paintOf(darkColor),
      centre: fc.option(fc.constantFrom(...new Set(CORNER_DOT_TYPES)), { nil: undefined }),
      centrePaint: paintOf(darkColor),
      background: fc.oneof(paintOf(lightColor), fc.constant({ color: 'transparent' })),
      round: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      image: fc.option(logo, { nil: undefined }),
      hideBackgroundDots: fc.boolean(),
      imageSize: fc.option(fc.double({ min: 0.1, max: 0.4, noNaN: true }), { nil: undefined }),
      logoMargin: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
      level: fc.option(fc.constantFrom(...ERROR_CORRECTION_LEVELS), { nil: undefined }),
      margin: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
      shape: fc.constantFrom('square' as const, 'circle' as const),
    },
    { requiredKeys: [] },
  )
  .map((parts) => {
    const style: QrStyle = {
      dotsOptions: {
        ...parts.dotsPaint,
        ...(parts.dotsType ? { type: parts.dotsType } : {}),
        ...(parts.roundSize === false ? { roundSize: false } : {}),
      },
      ...(parts.ring || parts.ringPaint ? { cornersSquareOptions: { ...parts.ringPaint, ...(parts.ring ? { type: parts.ring } : {}) } } : {}),
      ...(parts.centre || parts.centrePaint ? { cornersDotOptions: { ...parts.centrePaint, ...(parts.centre ? { type: parts.centre } : {}) } } : {}),
      backgroundOptions: { ...parts.background, ...(parts.round === undefined ? {} : { round: parts.round }) },
      ...(parts.level ? { qrOptions: { errorCorrectionLevel: parts.level } } : {}),
      ...(parts.margin === undefined ? {} : { margin: parts.margin }),
      ...(parts.shape ? { shape: parts.shape } : {}),
    };
    if (parts.image) {
      style.image = parts.image;
      style.imageOptions = {
        hideBackgroundDots: parts.hideBackgroundDots ?? true,
        ...(parts.imageSize === undefined ? {} : { imageSize: parts.imageSize }),
        ...(parts.logoMargin === undefined ? {} : { margin: parts.logoMargin }),
      };
    }
    return style;
  });

/** Styles checkStyle accepts (the others are what create would refuse with 400). */
export const acceptedStyle: fc.Arbitrary<QrStyle> = styleCandidate.filter((style) => checkStyle(style).ok);

const urlText = fc.stringMatching(/^[a-z0-9/?=&._-]{1,200}$/).map((path) => `https://example.com/${path}`);
const unicodeText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 120 });
const numericText = fc.stringMatching(/^[0-9]{1,300}$/);
const alphanumericText = fc.stringMatching(/^[0-9A-Z $%*+\-./:]{1,250}$/);

export const codeText: fc.Arbitrary<string> = fc.oneof(urlText, unicodeText, numericText, alphanumericText);

export interface DecodeCase {
  text: string;
  style: QrStyle;
  size: number;
}

export const decodeCase: fc.Arbitrary<DecodeCase> = fc.record({ text: codeText, style: acceptedStyle, size: fc.integer({ min: 100, max: 2000 }) });
