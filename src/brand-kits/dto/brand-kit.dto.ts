import { ApiProperty, ApiPropertyOptional, getSchemaPath, PartialType } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsObject, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import type { DomainId } from '../../common/ids/resource-ids';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import type { BrandKitRecord } from '../brand-kits.repository';

/** The style object's schema, registered by the QR code module's DTOs (a kit's style is a code's style). */
const STYLE_SCHEMA = getSchemaPath('StyleDto');

const LOGO_EXAMPLE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A brand kit as written with PUT (and POST): every field; those left out take their defaults. */
export class BrandKitBodyDto {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'Acme', description: 'Not blank' })
  @IsString()
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiPropertyOptional({
    allOf: [{ $ref: STYLE_SCHEMA }],
    description: "The kit's style (a code's style object), without frameOptions and image: give those as frame and logo. Checked like a code's style",
    default: {},
  })
  @IsOptionalNotNull()
  @IsObject({ message: 'style must be an object' })
  style?: Record<string, unknown>;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The call to action around codes (the style's frameOptions: type, text, color, textColor, font); null: none",
    example: { type: 'banner-bottom', text: 'SCAN ME', color: '#1a237e' },
  })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsObject({ message: 'frame must be an object' })
  frame?: Record<string, unknown> | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "The logo: the style's image, a data: URI of PNG, JPEG or WebP (at most 256 KB); null: none",
    example: LOGO_EXAMPLE,
  })
  @ValidateIf((_, value) => value !== null && value !== undefined)
  @IsString()
  logo?: string | null;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      'true: codes the kit is the default of (on its domains; with default, on the default host) use this kit ' +
      'and may not set its colours or logo to other values',
  })
  @IsOptionalNotNull()
  @IsBoolean()
  enforced?: boolean;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description: "true: the account's default kit, which new codes get when they name none (one per account: another loses it)",
  })
  @IsOptionalNotNull()
  @IsBoolean()
  default?: boolean;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    default: [],
    description: "Your domains whose default kit this is: new codes on them get it (before the account's default); a domain has one default kit",
    example: [],
  })
  @IsOptionalNotNull()
  @IsArray({ message: 'domain_ids must be an array of domain ids' })
  @ResourceIdField({ each: true })
  domain_ids?: DomainId[];
}

/** PATCH: only the fields sent change. */
export class BrandKitPatchDto extends PartialType(BrandKitBodyDto) {}

export const CREATE_BRAND_KIT_EXAMPLES: Record<string, BodyExample<BrandKitBodyDto>> = {
  kit: {
    summary: 'Rounded navy dots, a banner and a logo; the default kit',
    value: {
      name: 'Acme',
      style: { dotsOptions: { type: 'rounded', color: '#1a237e' }, cornersSquareOptions: { type: 'extra-rounded', color: '#1a237e' } },
      frame: { type: 'banner-bottom', text: 'SCAN ME', color: '#1a237e' },
      logo: LOGO_EXAMPLE,
      default: true,
    },
  },
};
export const PATCH_BRAND_KIT_EXAMPLES: Record<string, BodyExample<BrandKitPatchDto>> = {
  recolour: { summary: 'A new colour for every code using the kit', value: { style: { dotsOptions: { type: 'rounded', color: '#b71c1c' } } } },
};

export class BrandKitView {
  @ApiProperty({ format: 'uuid', example: '2f6b9c1e-8d3a-4e5f-9a7b-1c2d3e4f5a6b' }) id: string;
  @ApiProperty({ example: 'Acme' }) name: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { dotsOptions: { type: 'rounded', color: '#1a237e' } },
    description: "The kit's style, as sent (the StyleDto schema); its frame and logo are frame and logo",
  })
  style: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, example: { type: 'banner-bottom', text: 'SCAN ME', color: '#1a237e' } })
  frame: Record<string, unknown> | null;
  @ApiProperty({ type: String, nullable: true, example: LOGO_EXAMPLE }) logo: string | null;
  @ApiProperty({ example: false }) enforced: boolean;
  @ApiProperty({ example: true, description: "The account's default kit" }) default: boolean;
  @ApiProperty({ type: [String], format: 'uuid', example: [] }) domain_ids: string[];
  @ApiProperty({ type: 'integer', example: 3, description: "Goes up with every change of the kit's look (its codes' images change with it)" })
  version: number;
  @ApiProperty({ type: 'integer', example: 120, description: 'Codes using the kit (a folder-restricted key: those in its folders)' }) codes: number;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class BrandKitGetView extends BrandKitView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class BrandKitListView {
  @ApiProperty({ type: [BrandKitView], description: 'Newest first' }) data: BrandKitView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export function toBrandKitView(kit: BrandKitRecord, codes: number): BrandKitView {
  return {
    id: kit.id,
    name: kit.name,
    style: kit.style,
    frame: kit.frame,
    logo: kit.logo,
    enforced: kit.enforced,
    default: kit.isDefault,
    domain_ids: kit.domainIds,
    version: kit.version,
    codes,
    created_at: kit.createdAt.toISOString(),
    updated_at: kit.updatedAt.toISOString(),
  };
}
