import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { PaginationView, REQUEST_ID_PROPERTY } from '../../../common/openapi/common-views';
import type { BodyExample } from '../../../common/openapi/json-body';
import { IsOptionalNotNull } from '../../../common/validation/optional-not-null';
import { PageLimit, PageNumber } from '../../../common/validation/page-query';
import { ResourceIdField } from '../../../common/validation/resource-id.pipe';
import { ASSIGNABLE_LINK_TYPES } from '../../links/link-types';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** A language tag as GS1's linkset schema allows it: `en` or `en-GB`. */
export const HREFLANG = /^[A-Za-z]{2}(-[A-Za-z]{2})?$/;
/** A media type (`text/html`). */
export const MEDIA_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,63}$/;
/** A context value (a market, a jurisdiction, a use): letters, digits, `_` and `-`. */
export const CONTEXT = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_LINKS = 50;

export class Gs1LinkDto {
  @ApiProperty({ enum: ASSIGNABLE_LINK_TYPES, example: 'gs1:pip', description: 'A GS1 Web Vocabulary link type, as a CURIE (`gs1:pip`) or its URI' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  link_type: string;

  @ApiProperty({
    example: 'https://brand.example/products/rice?lot={10}',
    maxLength: 2048,
    description: 'Absolute http(s) target; `{01}`, `{10}`, `{21}`, `{22}`, `{17}`… are replaced by the request’s values (percent-encoded)',
  })
  @IsString()
  href: string;

  @ApiProperty({ example: 'Product information', minLength: 1, maxLength: 200, description: 'Human-readable title (every link has one)' })
  @Transform(trim)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  title: string;

  @ApiPropertyOptional({ type: [String], example: ['en'], description: 'Languages of the target (`en`, `en-GB`)' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(10)
  @Matches(HREFLANG, { each: true, message: 'hreflang entries must be language tags such as en or en-GB' })
  hreflang?: string[];

  @ApiPropertyOptional({ example: 'text/html', description: 'Media type of the target' })
  @IsOptionalNotNull()
  @IsString()
  @Matches(MEDIA_TYPE, { message: 'type must be a media type such as text/html' })
  type?: string;

  @ApiPropertyOptional({
    type: [String],
    example: ['GB'],
    description: 'Contexts the link is for (a market, a jurisdiction); a request’s `context` picks among them',
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(10)
  @Matches(CONTEXT, { each: true, message: 'context entries must be 1-64 letters, digits, _ or -' })
  context?: string[];

  @ApiPropertyOptional({ example: true, description: 'The item’s default link (`gs1:defaultLink`): exactly one link has true' })
  @IsOptionalNotNull()
  @IsBoolean()
  default?: boolean;
}

export class Gs1ItemBodyDto {
  @ApiProperty({
    example: '/01/09506000134352/10/LOT42',
    maxLength: 512,
    description: 'The GS1 key path: a primary key (`01` GTIN, `00` SSCC, `414` GLN, `8003` GRAI, `8004` GIAI, …) and its key qualifiers in order',
  })
  @IsString()
  @MaxLength(512)
  path: string;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'One of your verified domains; absent: the default redirect host, under GS1_PATH_PREFIX',
  })
  @IsOptional()
  @ResourceIdField()
  domain_id?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'Dal Giardino risotto rice',
    maxLength: 200,
    description: 'Shown as the linkset’s itemDescription',
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @ApiProperty({ type: [Gs1LinkDto], minItems: 1, maxItems: MAX_LINKS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LINKS)
  @IsObject({ each: true, message: 'links entries must be objects' })
  @ValidateNested({ each: true })
  @Type(() => Gs1LinkDto)
  links: Gs1LinkDto[];
}

/** An update: the fields sent replace the item's (links as a whole); the path and domain stay. */
export class Gs1ItemUpdateDto {
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Dal Giardino risotto rice 1 kg', maxLength: 200 })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(200)
  name?: string | null;

  @ApiPropertyOptional({ type: [Gs1LinkDto], minItems: 1, maxItems: MAX_LINKS })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_LINKS)
  @IsObject({ each: true, message: 'links entries must be objects' })
  @ValidateNested({ each: true })
  @Type(() => Gs1LinkDto)
  links?: Gs1LinkDto[];
}

export class ListGs1ItemsQuery {
  @PageNumber() page?: number;
  @PageLimit(20) limit?: number;

  @ApiPropertyOptional({ example: '09506000134352', description: 'Items of this primary key value (a GTIN: 8 to 14 digits, padded)' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  key?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Items on this domain' })
  @IsOptional()
  @ResourceIdField()
  domain_id?: string;
}

/** Request examples; each is valid as it stands (a test executes them). */
export const CREATE_GS1_ITEM_EXAMPLES: Record<string, BodyExample<Gs1ItemBodyDto>> = {
  gtin: {
    summary: 'A GTIN with a product page in two languages and a recall status per lot',
    value: {
      path: '/01/09506000134352',
      name: 'Dal Giardino risotto rice',
      links: [
        {
          link_type: 'gs1:pip',
          href: 'https://brand.example/rice',
          title: 'Product information',
          hreflang: ['en'],
          type: 'text/html',
          default: true,
        },
        { link_type: 'gs1:pip', href: 'https://brand.example/fr/riz', title: 'Informations produit', hreflang: ['fr'], type: 'text/html' },
        { link_type: 'gs1:recallStatus', href: 'https://brand.example/recalls?gtin={01}&lot={10}', title: 'Recall status' },
      ],
    },
  },
};
export const UPDATE_GS1_ITEM_EXAMPLES: Record<string, BodyExample<Gs1ItemUpdateDto>> = {
  rename: { summary: 'A new name', value: { name: 'Dal Giardino risotto rice 1 kg' } },
};

const TIMESTAMP = { format: 'date-time', example: '2026-11-24T09:30:00.000Z' };

export class Gs1LinkView {
  @ApiProperty({ example: 'gs1:pip' }) link_type: string;
  @ApiProperty({ example: 'https://brand.example/rice' }) href: string;
  @ApiProperty({ example: 'Product information' }) title: string;
  @ApiProperty({ type: [String], example: ['en'] }) hreflang: string[];
  @ApiProperty({ type: String, nullable: true, example: 'text/html' }) type: string | null;
  @ApiProperty({ type: [String], example: [] }) context: string[];
  @ApiProperty({ example: true }) default: boolean;
}

export class Gs1ItemView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: '/01/09506000134352', description: 'The normalised key path (GTINs in 14 digits)' }) path: string;
  @ApiProperty({ example: 'https://qr.example.com/gs1/01/09506000134352', description: 'The full GS1 Digital Link URI the item answers at' })
  uri: string;
  @ApiProperty({ example: '(01) 09506000134352', description: 'Human-readable interpretation, printed under the code' }) hri: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) domain_id: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Dal Giardino risotto rice' }) name: string | null;
  @ApiProperty({ type: [Gs1LinkView] }) links: Gs1LinkView[];
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Resolutions that redirected a person', example: 0 }) scans: number;
  @ApiProperty(TIMESTAMP) created_at: string;
  @ApiProperty(TIMESTAMP) updated_at: string;
}

export class Gs1ItemGetView extends Gs1ItemView {
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class Gs1ItemListView {
  @ApiProperty({ type: [Gs1ItemView] }) data: Gs1ItemView[];
  @ApiProperty({ type: PaginationView }) pagination: PaginationView;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
