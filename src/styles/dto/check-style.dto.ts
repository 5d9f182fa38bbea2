import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsObject, Max, Min } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import { FieldErrorView } from '../../common/openapi/error-responses';
import type { BodyExample } from '../../common/openapi/json-body';
import { STYLE_RULE_DESCRIPTION, StyleDto } from '../../qrcodes/dto/style.dto';
import { ERROR_CORRECTION_LEVELS, type ErrorCorrectionLevel } from '../../rendering/style';

/** More bytes than a version-40 code holds at level L: larger lengths cannot fit at any level. */
export const MAX_CONTENT_LENGTH = 2953;
export const CODE_KINDS = ['static', 'dynamic'] as const;
export type CodeKind = (typeof CODE_KINDS)[number];

export class CheckStyleDto {
  @ApiProperty({ type: () => StyleDto, description: `The style to check, as sent on create, bulk create and update. ${STYLE_RULE_DESCRIPTION}` })
  @IsDefined()
  @IsObject({ message: 'style must be an object' })
  style: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_CONTENT_LENGTH,
    description:
      "Static codes: the content string's length in UTF-8 bytes (byte mode assumed). Decides the module count, so " +
      'whether the content fits at the effective error correction level and the smallest size. Unset: the size answers are null.',
    example: 120,
  })
  @IsOptionalNotNull()
  @IsInt()
  @Min(0)
  @Max(MAX_CONTENT_LENGTH)
  content_length?: number;

  @ApiPropertyOptional({
    enum: CODE_KINDS,
    default: 'static',
    description: "dynamic: the image encodes the code's short link (its length is known, content_length is not needed)",
  })
  @IsOptionalNotNull()
  @IsIn(CODE_KINDS, { message: `type must be one of: ${CODE_KINDS.join(', ')}` })
  type?: CodeKind;
}

export class AppliedDefaultView {
  @ApiProperty({ example: 'style.cornersSquareOptions.type' }) field: string;
  @ApiProperty({ example: 'extra-rounded' }) value: string;
  @ApiProperty({ example: 'unset, and dots modules would draw the finder ring as loose circles that scanners do not find' }) reason: string;
}

export class StyleCheckView {
  @ApiProperty({ description: 'Whether create, bulk create and update accept this style (and content length)', example: true })
  accepted: boolean;

  @ApiProperty({ type: [FieldErrorView], description: 'The field errors those requests would answer with 400; empty when accepted' })
  errors: FieldErrorView[];

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Lowest WCAG contrast ratio between a foreground and a background colour (at least 3 is accepted); null when the style is malformed',
    example: 17.4,
  })
  contrast_ratio: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: "Share of the code's area the logo and its margin cover; null without a logo",
    example: null,
  })
  logo_coverage: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'What the level may lose to a logo: its recoverable share × the safety factor 0.6; null without a logo',
    example: null,
  })
  logo_budget: number | null;

  @ApiProperty({ enum: ERROR_CORRECTION_LEVELS, nullable: true, description: 'The style’s level, else H with a logo, else M', example: 'M' })
  error_correction_level: ErrorCorrectionLevel | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Modules per side of the code (null without content_length for a static code, or when that content does not fit at the level)',
    example: 33,
  })
  module_count: number | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Pixels per module the style’s shapes need to be drawn as they are', example: 3 })
  pixels_per_module: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      'Smallest image `size` at which every module is at least pixels_per_module wide. Below it shapes are drawn closer to squares; ' +
      'the image still decodes while its modules are 2 px wide (from the X-QR-Min-Decodable-Size of the image endpoint), and may not below',
    example: 123,
  })
  min_size: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: '`style.margin` in pixels, or null for the default quiet zone (four modules; two outside the circle shape)',
    example: null,
  })
  margin_px: number | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'The quiet zone (light border) in modules at min_size; null when no size is known',
    example: 4,
  })
  quiet_zone_modules: number | null;

  @ApiProperty({ type: [AppliedDefaultView], description: 'Scannable defaults the renderer applies to fields the style left unset' })
  defaults_applied: AppliedDefaultView[];

  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export const CHECK_STYLE_EXAMPLES: Record<string, BodyExample<CheckStyleDto>> = {
  dots: {
    summary: 'Round dots with unset corners: accepted, with solid finder defaults',
    value: { style: { dotsOptions: { type: 'dots', color: '#1a237e' } }, content_length: 60 },
  },
  dynamicWithLogo: {
    summary: 'A dynamic code with a logo and a gradient',
    value: {
      type: 'dynamic',
      style: {
        dotsOptions: {
          type: 'extra-rounded',
          gradient: {
            rotation: 45,
            colorStops: [
              { offset: 0, color: '#0d47a1' },
              { offset: 1, color: '#4a148c' },
            ],
          },
        },
        image: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4UCEHRwzEcQCHMhhhOn+Z3AAAAABJRU5ErkJggg==',
      },
    },
  },
  refused: {
    summary: 'Low contrast: not accepted, with the field to change (still 200)',
    value: { style: { dotsOptions: { color: '#bbbbbb' } } },
  },
};
