import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIP, IsISO8601, IsObject, IsString, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import type { BodyExample } from '../../common/openapi/json-body';
import { COUNTRY_CODES } from '../settings/country-codes';
import { CONDITION_ORDER } from '../settings/link-settings';

/** A simulated scan for the dry-run resolver (docs/smart-links.md#dry-run-resolver); every field optional. */
export class ResolveScanDto {
  @ApiPropertyOptional({
    maxLength: 512,
    example:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    description: "The scanner's User-Agent (device, os and browser conditions; none: a bot, as at the redirect host)",
  })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(512)
  user_agent?: string;

  @ApiPropertyOptional({ maxLength: 512, example: 'de-AT,de;q=0.9,en;q=0.5', description: 'The Accept-Language header' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(512)
  accept_language?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: '^[A-Za-z]{2}$',
    example: 'AT',
    description: "ISO 3166-1 alpha-2; null: unknown; left out: the visitor address's country, as the redirect host would find it",
  })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  // The codes a rule's country condition accepts: a made-up pair of letters could never match one.
  @ValidateBy(
    {
      name: 'isCountryCode',
      validator: { validate: (value) => typeof value === 'string' && /^[A-Za-z]{2}$/.test(value) && COUNTRY_CODES.has(value.toUpperCase()) },
    },
    { message: 'country must be an ISO 3166-1 alpha-2 code such as DE' },
  )
  country?: string | null;

  @ApiPropertyOptional({ format: 'date-time', example: '2027-03-28T09:30:00Z', description: 'When the scan happens; default: now' })
  @IsOptionalNotNull()
  @IsISO8601({ strict: true })
  time?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { src: 'poster' },
    description: 'The query of the scanned link (`/r/<code>?src=poster`)',
  })
  @IsOptionalNotNull()
  @IsObject({ message: 'query must be an object of parameter names and values' })
  query?: Record<string, string>;

  @ApiPropertyOptional({
    example: '203.0.113.7',
    description:
      "The visitor's IP address: it picks the split arm (with the user agent and the day, as a real scan's visitor hash does) " +
      'and, without `country`, the country',
  })
  @IsOptionalNotNull()
  @IsIP(undefined, { message: 'visitor must be an IP address' })
  visitor?: string;

  @ApiPropertyOptional({ default: false, description: 'The visitor has entered the right password (a protected link answers its form otherwise)' })
  @IsOptionalNotNull()
  @IsBoolean()
  password_entered?: boolean;
}

export const RESOLVE_SCAN_EXAMPLES: Record<string, BodyExample<ResolveScanDto>> = {
  phoneInAustria: {
    summary: 'A German-speaking phone in Austria on a Saturday morning',
    value: {
      user_agent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      accept_language: 'de-AT,de;q=0.9,en;q=0.5',
      country: 'AT',
      time: '2027-03-27T09:30:00Z',
      query: { src: 'poster' },
      visitor: '203.0.113.7',
    },
  },
  anyScan: { summary: 'A scan about which nothing is known (no user agent: a bot)', value: {} },
};

export class RuleMissView {
  @ApiProperty({ example: 0 }) index: number;
  @ApiProperty({ type: String, nullable: true, example: 'US visitors' }) name: string | null;
  @ApiProperty({ enum: CONDITION_ORDER, example: 'country', description: 'The first of its conditions that did not hold' }) failed_condition: string;
}

export class MatchedRuleView {
  @ApiProperty({ example: 1 }) index: number;
  @ApiProperty({ type: String, nullable: true, example: 'German speakers' }) name: string | null;
}

export const RESOLVED_OUTCOMES = ['redirect', 'landing_page', 'password_required', 'limit_reached', 'paused', 'expired', 'refused'] as const;

export class ResolvedScanView {
  @ApiProperty({
    enum: RESOLVED_OUTCOMES,
    example: 'redirect',
    description: 'What the redirect host would answer; limit_reached with a fallback_url redirects there',
  })
  outcome: string;
  @ApiProperty({ example: 302, description: 'Its HTTP status' }) status: number;
  @ApiProperty({ type: String, nullable: true, example: 'https://example.com/de?utm_source=qr', description: 'Its Location (redirects), else null' })
  location: string | null;
  @ApiProperty({
    type: 'object',
    nullable: true,
    properties: { index: { type: 'integer', example: 1 }, name: { type: 'string', nullable: true, example: 'German speakers' } },
    required: ['index', 'name'],
    description: "The rule that matched; null: none (the code's own content)",
  })
  rule: MatchedRuleView | null;
  @ApiProperty({ type: Number, nullable: true, example: null, description: "The split's arm (0-based), when the rule's target is a split" })
  arm: number | null;
  @ApiProperty({ type: [RuleMissView], description: 'Each rule before the match (all of them when none matched), with the condition that failed' })
  rules_not_matched: RuleMissView[];
  @ApiProperty({
    type: 'integer',
    example: 1,
    description: 'Scans the resolver saw (scans_below and max_scans compare against it); it counts nothing',
  })
  scans: number;
  @ApiProperty({ example: 'f3c1a2b4-5d6e-4f70-8a9b-0c1d2e3f4a5b' }) request_id: string;
}
