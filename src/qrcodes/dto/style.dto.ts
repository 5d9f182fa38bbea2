/**
 * The request field `style` as OpenAPI sees it. These classes only document the schema: validation
 * is checkStyle's (pass it the raw JSON value, not an instance of these classes), and a test holds
 * this schema equal to the one checkStyle enforces.
 */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MAX_LOGO_BYTES } from '../../rendering/style/logo-data-uri';
import {
  BackgroundOptions,
  ColorStop,
  CORNER_DOT_TYPES,
  CORNER_SQUARE_TYPES,
  CornerDotType,
  CornersDotOptions,
  CornerSquareType,
  CornersSquareOptions,
  DOT_TYPES,
  DotsOptions,
  DotType,
  ERROR_CORRECTION_LEVELS,
  ErrorCorrectionLevel,
  FRAME_TYPES,
  FrameOptions,
  FrameType,
  Gradient,
  GRADIENT_TYPES,
  GradientType,
  ImageOptions,
  QrOptions,
  QrStyle,
  Shape,
  SHAPES,
} from '../../rendering/style/qr-style';
import { DEFAULT_FRAME_FONT, FRAME_FONT_NAMES } from '../../rendering/frames/frame-fonts';
import { DEFAULT_FRAME_TEXT, MAX_FRAME_TEXT_LENGTH } from '../../rendering/frames/frame-layout';
import { MAX_COLOR_STOPS, MAX_GRADIENT_ROTATION_DEGREES, MAX_LOGO_MARGIN_PX, MAX_MARGIN_PX } from '../../rendering/style/style-schema';

const HEX_DIGITS = '#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})';
const HEX_COLOR_PATTERN = `^${HEX_DIGITS}$`;
const BACKGROUND_COLOR_PATTERN = `^(${HEX_DIGITS}|transparent)$`;
const HEX_COLOR_DESCRIPTION = 'Hex color: #rgb, #rrggbb or #rrggbbaa.';
const GRADIENT_DESCRIPTION = 'Gradient; when given it is used instead of `color`.';

const distinct = (values: readonly string[]) => [...new Set(values)];

/**
 * The rule of scannable defaults and refusals, as the OpenAPI description of every `style` field
 * states it (docs/styling-and-scannability.md#scannable-defaults-before-refusals).
 */
export const STYLE_RULE_DESCRIPTION =
  'Styling options (qr-code-styling v1.9 schema, gradient rotation in degrees); stored as sent and returned as `style_config`. ' +
  'Every image drawn with modules at least 2 px wide decodes: the image endpoint names the smallest such `size` of a code in its ' +
  'X-QR-Min-Decodable-Size header (a long static content at a small size draws narrower modules, which may not decode). ' +
  'Unset parts get scannable defaults: with `dotsOptions.type` `dots`, an unset ' +
  '`cornersSquareOptions.type` is drawn `extra-rounded` and an unset `cornersDotOptions.type` `dot` (inside a round ring) or ' +
  '`square` (inside any other), instead of loose circles; where modules are narrower than 3 px (classy-rounded, ' +
  'extra-rounded, dot corners) or 2 px (other rounded shapes) they are drawn as squares. A `dot` centre inside a ring that is ' +
  'not a circle is drawn as a square rounded by 0.4 of its side, and a `square` centre inside a `dot` ring gets corners rounded by ' +
  '1/6 of its side: the finder keeps its proportions along the diagonals, which some decoders check. ' +
  'Only what you set and scanners cannot read is refused (400 naming the ' +
  'field): contrast under 3:1 or light-on-dark colours, a logo larger than the error correction level can recover, ' +
  '`cornersDotOptions.type` `dots`, and `cornersSquareOptions.type` `dots` around a `dot` centre. ' +
  'POST /api/v1/styles/check answers the verdict and the defaults applied before you create.';

export class ColorStopDto implements ColorStop {
  @ApiProperty({ type: Number, minimum: 0, maximum: 1, description: 'Position along the gradient.', example: 0 })
  offset: number;

  @ApiProperty({ type: String, pattern: HEX_COLOR_PATTERN, description: HEX_COLOR_DESCRIPTION, example: '#000000' })
  color: string;
}

export class GradientDto implements Gradient {
  @ApiPropertyOptional({ enum: distinct(GRADIENT_TYPES), enumName: 'GradientType', default: 'linear' })
  type?: GradientType;

  @ApiPropertyOptional({
    type: Number,
    minimum: -MAX_GRADIENT_ROTATION_DEGREES,
    maximum: MAX_GRADIENT_ROTATION_DEGREES,
    default: 0,
    description: 'Rotation in degrees (qr-code-styling uses radians; this API uses degrees).',
  })
  rotation?: number;

  @ApiProperty({ type: () => [ColorStopDto], minItems: 1, maxItems: MAX_COLOR_STOPS })
  colorStops: ColorStopDto[];
}

export class DotsOptionsDto implements DotsOptions {
  @ApiPropertyOptional({ enum: distinct(DOT_TYPES), enumName: 'DotType', default: 'square' })
  type?: DotType;

  @ApiPropertyOptional({
    type: String,
    pattern: HEX_COLOR_PATTERN,
    description: HEX_COLOR_DESCRIPTION,
    default: '#000000',
  })
  color?: string;

  @ApiPropertyOptional({ type: () => GradientDto, description: GRADIENT_DESCRIPTION })
  gradient?: GradientDto;

  @ApiPropertyOptional({ type: Boolean, description: 'Round the module size to whole pixels.' })
  roundSize?: boolean;
}

export class CornersSquareOptionsDto implements CornersSquareOptions {
  @ApiPropertyOptional({
    enum: distinct(CORNER_SQUARE_TYPES),
    enumName: 'CornerSquareType',
    description:
      'Unset: the dots type as module shape; with dots `dots`, extra-rounded (a scannable default). `dots` around a `dot` centre is refused.',
  })
  type?: CornerSquareType;

  @ApiPropertyOptional({
    type: String,
    pattern: HEX_COLOR_PATTERN,
    description: `${HEX_COLOR_DESCRIPTION} Unset: the dots paint. ` + 'Also colours the corner dots unless they set their own.',
  })
  color?: string;

  @ApiPropertyOptional({ type: () => GradientDto, description: GRADIENT_DESCRIPTION })
  gradient?: GradientDto;
}

export class CornersDotOptionsDto implements CornersDotOptions {
  @ApiPropertyOptional({
    enum: distinct(CORNER_DOT_TYPES),
    enumName: 'CornerDotType',
    description:
      'Unset: the dots type as module shape; with dots `dots`, dot inside a round ring, else square (a scannable default). `dots` is refused.',
  })
  type?: CornerDotType;

  @ApiPropertyOptional({
    type: String,
    pattern: HEX_COLOR_PATTERN,
    description: `${HEX_COLOR_DESCRIPTION} Unset: the corner square paint, else the dots paint.`,
  })
  color?: string;

  @ApiPropertyOptional({ type: () => GradientDto, description: GRADIENT_DESCRIPTION })
  gradient?: GradientDto;
}

export class BackgroundOptionsDto implements BackgroundOptions {
  @ApiPropertyOptional({
    type: String,
    pattern: BACKGROUND_COLOR_PATTERN,
    description: `${HEX_COLOR_DESCRIPTION} Or "transparent".`,
    default: '#ffffff',
  })
  color?: string;

  @ApiPropertyOptional({ type: () => GradientDto, description: GRADIENT_DESCRIPTION })
  gradient?: GradientDto;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 1,
    description: 'Corner rounding of the background square.',
  })
  round?: number;
}

export class ImageOptionsDto implements ImageOptions {
  @ApiPropertyOptional({ type: Boolean, description: 'Leave out the modules behind the logo.' })
  hideBackgroundDots?: boolean;

  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    exclusiveMinimum: true,
    maximum: 1,
    default: 0.4,
    description: "Logo side as a fraction of the code's side. " + 'The logo must stay within what the error correction level can recover.',
  })
  imageSize?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_LOGO_MARGIN_PX,
    description: 'Margin around the logo, in pixels.',
  })
  margin?: number;
}

export class QrOptionsDto implements QrOptions {
  @ApiPropertyOptional({
    enum: distinct(ERROR_CORRECTION_LEVELS),
    enumName: 'ErrorCorrectionLevel',
    description: 'Default: H with a logo, else M.',
  })
  errorCorrectionLevel?: ErrorCorrectionLevel;
}

export class FrameOptionsDto implements FrameOptions {
  @ApiPropertyOptional({
    enum: distinct(FRAME_TYPES),
    enumName: 'FrameType',
    default: 'none',
    description:
      'A frame with a call to action around the code: a banner below or above, a box with the text under the code, or a speech ' +
      'bubble under it. The frame adds to the image (the code keeps its size and its quiet zone); /image and /export draw it alike.',
  })
  type?: FrameType;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: MAX_FRAME_TEXT_LENGTH,
    default: DEFAULT_FRAME_TEXT,
    description:
      `One line of at most ${MAX_FRAME_TEXT_LENGTH} characters, drawn as outlines of the bundled font (no font needed to view the image). ` +
      'Latin, Greek and Cyrillic letters, digits and punctuation; a character the font lacks is refused (400 naming style.frameOptions.text).',
    example: 'Scan for the menu',
  })
  text?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: HEX_COLOR_PATTERN,
    description: `${HEX_COLOR_DESCRIPTION} The banner, border or bubble.`,
    default: '#000000',
  })
  color?: string;

  @ApiPropertyOptional({
    type: String,
    pattern: HEX_COLOR_PATTERN,
    description:
      `${HEX_COLOR_DESCRIPTION} Unset: #ffffff, in a box the frame colour. Needs 3:1 contrast against what it stands on ` +
      '(the frame colour; in a box the background).',
  })
  textColor?: string;

  @ApiPropertyOptional({
    enum: distinct(FRAME_FONT_NAMES),
    enumName: 'FrameFont',
    default: DEFAULT_FRAME_FONT,
    description: 'A bundled OFL font, bold.',
  })
  font?: string;
}

export class StyleDto implements QrStyle {
  @ApiPropertyOptional({ type: () => DotsOptionsDto })
  dotsOptions?: DotsOptionsDto;

  @ApiPropertyOptional({ type: () => CornersSquareOptionsDto })
  cornersSquareOptions?: CornersSquareOptionsDto;

  @ApiPropertyOptional({ type: () => CornersDotOptionsDto })
  cornersDotOptions?: CornersDotOptionsDto;

  @ApiPropertyOptional({ type: () => BackgroundOptionsDto })
  backgroundOptions?: BackgroundOptionsDto;

  @ApiPropertyOptional({
    type: String,
    format: 'data-uri',
    pattern: '^data:image/(png|jpeg|webp);base64,',
    description:
      'Logo: a base64 data: URI of a PNG, JPEG or WebP image (checked by its content), ' +
      `at most ${MAX_LOGO_BYTES / 1024} KB decoded. SVG is refused.`,
  })
  image?: string;

  @ApiPropertyOptional({ type: () => ImageOptionsDto })
  imageOptions?: ImageOptionsDto;

  @ApiPropertyOptional({ type: () => QrOptionsDto })
  qrOptions?: QrOptionsDto;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_MARGIN_PX,
    description:
      'Quiet zone (the light border scanners need), in pixels of the image. Unset: four modules wide, scaled to the ' +
      'image size (two modules outside the circle for shape circle). 0 removes it.',
  })
  margin?: number;

  @ApiPropertyOptional({ enum: distinct(SHAPES), enumName: 'Shape', default: 'square' })
  shape?: Shape;

  @ApiPropertyOptional({ type: () => FrameOptionsDto })
  frameOptions?: FrameOptionsDto;
}
