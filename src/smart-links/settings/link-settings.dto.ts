import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import {
  MAX_RULES,
  MAX_SCAN_RETENTION_DAYS,
  MAX_SPLIT_ARMS,
  MIN_SPLIT_ARMS,
  PASSWORD_LENGTH,
  RULE_BROWSERS,
  RULE_DEVICES,
  RULE_OSES,
  UTM_FIELDS,
  WEEKDAYS,
} from './link-settings';
import { PREVIEW_LIMITS } from './link-preview';

/*
 * The OpenAPI schemas of the smart-link fields (docs/smart-links.md). Their values are checked in
 * depth by checkLinkFields (src/smart-links/settings/), which names each problem by its path
 * (`rules[3].conditions.time.time_zone`); class-validator only lets the fields through (@Allow).
 */

export class RuleHoursDto {
  @ApiProperty({ example: '09:00', pattern: '^([01]\\d|2[0-4]):[0-5]\\d$', description: 'Local time, 24-hour' }) from: string;
  @ApiProperty({ example: '17:30', pattern: '^([01]\\d|2[0-4]):[0-5]\\d$', description: 'Local time; before `from`: the window spans midnight' })
  to: string;
}

export class RuleTimeDto {
  @ApiPropertyOptional({ format: 'date-time', example: '2027-03-01T00:00:00Z', description: 'From this instant (inclusive)' }) from?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2027-04-01T00:00:00Z', description: 'Until this instant (exclusive)' }) to?: string;
  @ApiPropertyOptional({ type: [String], enum: WEEKDAYS, example: ['mon', 'tue', 'wed', 'thu', 'fri'], description: 'Local weekdays' })
  days?: string[];
  @ApiPropertyOptional({ type: () => RuleHoursDto }) hours?: RuleHoursDto;
  @ApiPropertyOptional({ example: 'Europe/Berlin', default: 'UTC', description: 'IANA time zone of `days` and `hours` (DST-correct)' })
  time_zone?: string;
}

export class RuleConditionsDto {
  @ApiPropertyOptional({ type: [String], enum: RULE_DEVICES, example: ['mobile'] }) device?: string[];
  @ApiPropertyOptional({ type: [String], enum: RULE_OSES, example: ['ios'] }) os?: string[];
  @ApiPropertyOptional({ type: [String], enum: RULE_BROWSERS, example: ['safari'] }) browser?: string[];
  @ApiPropertyOptional({
    type: [String],
    example: ['de'],
    description: "Language ranges: holds when the visitor's most preferred language (Accept-Language, by quality) falls in one (`de` covers `de-AT`)",
  })
  language?: string[];
  @ApiPropertyOptional({ type: [String], example: ['DE', 'AT'], description: 'ISO 3166-1 alpha-2; a scan whose country is unknown never matches' })
  country?: string[];
  @ApiPropertyOptional({ type: () => RuleTimeDto }) time?: RuleTimeDto;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { src: 'poster' },
    description: 'Parameters the scanned link must carry: `/r/<code>?src=poster`',
  })
  query?: Record<string, string>;
  @ApiPropertyOptional({ type: Number, minimum: 1, example: 100, description: "The code's scan count (buffered scans included) is below this" })
  scans_below?: number;
}

export class SplitArmDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    example: 'Landing A',
    description: 'Shown by analytics (`by_arm`) and the scan CSV (`arm_name`)',
  })
  name?: string;
  @ApiProperty({ example: 'https://example.com/landing-a', description: 'http(s) URL, as a url target' }) url: string;
  @ApiProperty({ type: Number, minimum: 1, maximum: 100, example: 50 }) weight: number;
}

export class SplitTargetDto {
  @ApiProperty({ type: [SplitArmDto], minItems: MIN_SPLIT_ARMS, maxItems: MAX_SPLIT_ARMS, description: 'Each visitor keeps one arm for the day' })
  split: SplitArmDto[];
}

export class LinkRuleDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    example: 'German speakers on phones',
    description: 'Shown by the resolver, analytics (`by_rule`) and the scan CSV (`rule_name`)',
  })
  name?: string;
  @ApiProperty({ type: () => RuleConditionsDto, description: 'All must hold; {} matches every scan' }) conditions: RuleConditionsDto;
  @ApiProperty({
    oneOf: [{ type: 'string', example: 'https://example.com/de' }, { $ref: getSchemaPath(SplitTargetDto) }],
    description: 'A URL; "content" (non-url codes: their landing page); or an A/B split',
  })
  target: string | SplitTargetDto;
}

export class UtmDto {
  @ApiPropertyOptional({ example: 'qr' }) source?: string;
  @ApiPropertyOptional({ example: 'print' }) medium?: string;
  @ApiPropertyOptional({ example: 'spring-2027' }) campaign?: string;
  @ApiPropertyOptional() term?: string;
  @ApiPropertyOptional() content?: string;
}

export class LinkPreviewDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: PREVIEW_LIMITS.title, example: 'Spring menu', description: "The card's title (og:title)" })
  title?: string;
  @ApiPropertyOptional({ minLength: 1, maxLength: PREVIEW_LIMITS.description, example: 'Three courses, from 5 pm', description: 'og:description' })
  description?: string;
  @ApiPropertyOptional({
    format: 'uri',
    maxLength: PREVIEW_LIMITS.image_url,
    example: 'https://example.com/cards/spring.png',
    description: "Absolute http(s) URL of the card's image (og:image); left out: the code's own QR image, served without a key",
  })
  image_url?: string;
}

/** The schemas the document registers for the smart-link fields (ApiExtraModels). */
export const LINK_SETTINGS_DTOS = [LinkRuleDto, RuleConditionsDto, RuleTimeDto, RuleHoursDto, SplitTargetDto, SplitArmDto, UtmDto, LinkPreviewDto];

/** The smart-link fields of create, bulk create and update (dynamic codes only). */
export class LinkSettingsDto {
  @ApiPropertyOptional({
    type: [LinkRuleDto],
    maxItems: MAX_RULES,
    nullable: true,
    description:
      `Dynamic codes: up to ${MAX_RULES} rules, evaluated in order at every scan; the first whose conditions all hold picks the target. ` +
      'null (update): remove all',
  })
  @Allow()
  rules?: LinkRuleDto[] | null;

  @ApiPropertyOptional({
    type: Number,
    minimum: 1,
    nullable: true,
    example: 500,
    description: 'Dynamic codes: after this many scans the link answers "limit reached" (410), or redirects to fallback_url',
  })
  @Allow()
  max_scans?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://example.com/sold-out', description: 'Where scans past max_scans go' })
  @Allow()
  fallback_url?: string | null;

  @ApiPropertyOptional({
    type: String,
    writeOnly: true,
    minLength: PASSWORD_LENGTH.min,
    maxLength: PASSWORD_LENGTH.max,
    nullable: true,
    description: 'Dynamic codes: scanners must enter it first (never returned: see has_password). null (update): remove',
  })
  @Allow()
  password?: string | null;

  @ApiPropertyOptional({
    type: () => UtmDto,
    nullable: true,
    description: `Appended as utm_<field> (${UTM_FIELDS.join(', ')}) to URL targets and rule URLs that do not carry the parameter already`,
  })
  @Allow()
  utm?: UtmDto | null;

  @ApiPropertyOptional({
    type: () => LinkPreviewDto,
    nullable: true,
    description:
      'Dynamic codes: the card chat and social apps show for the short link (docs/sharing.md#link-previews): their preview bots get a page ' +
      'with Open Graph and Twitter card tags instead of the redirect. At least one field. null (update): remove',
  })
  @Allow()
  preview?: LinkPreviewDto | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_SCAN_RETENTION_DAYS,
    nullable: true,
    example: 90,
    description:
      'Dynamic codes: scans older than this many days (whole UTC days) are deleted in the background, with their analytics; ' +
      "null: the deployment's retention (SCAN_RETENTION_DAYS, else forever). null (update): back to that",
  })
  @Allow()
  scan_retention_days?: number | null;
}
