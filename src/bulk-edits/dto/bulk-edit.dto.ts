import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, ArrayMinSize, ArrayMaxSize, IsArray, IsIn, IsObject, IsOptional, ValidateNested } from 'class-validator';
import type { QrCodeId } from '../../common/ids/resource-ids';
import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import { ListQrCodesQuery } from '../../qrcodes/dto/list-qr-codes.query';
import { UpdateQrCodeDto } from '../../qrcodes/dto/update-qr-code.dto';

/** The most ids one bulk edit names (more: a filter). */
export const MAX_BULK_IDS = 10_000;

/** `filter`: the list's own query parameters (GET /api/v1/qrcodes), `tag` and `tag_any` as arrays. */
export class BulkFilterDto extends PickType(ListQrCodesQuery, ['type', 'is_dynamic', 'search', 'status', 'folder_id', 'tag', 'tag_any'] as const) {}

/** `set`: fields given the same value on every code, checked as the update checks them. */
export class BulkSetDto extends PickType(UpdateQrCodeDto, ['status', 'folder_id', 'expires_at', 'domain_id', 'style'] as const) {
  @ApiPropertyOptional({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'string' },
    description: 'UTM parameters of the links (source, medium, campaign, term, content); null removes them',
  })
  @Allow()
  utm?: Record<string, string> | null;
}

export class ReplaceTargetDto {
  @ApiProperty({ example: 'https://old.example/', description: 'The start of the URLs to replace (http or https)' })
  @Allow()
  from: string;

  @ApiProperty({ example: 'https://new.example/', description: 'What replaces it' })
  @Allow()
  to: string;
}

/** Which codes: the list's filters or ids (exactly one of them). */
export class BulkSelectionDto {
  @ApiPropertyOptional({ type: () => BulkFilterDto, description: 'The codes the list shows with these filters ({}: all of yours)' })
  @IsOptional()
  @IsObject({ message: 'filter must be an object of the list filters' })
  @ValidateNested()
  @Type(() => BulkFilterDto)
  filter?: BulkFilterDto;

  @ApiPropertyOptional({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_BULK_IDS, description: 'These codes (instead of filter)' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_IDS, { message: `ids must hold at most ${MAX_BULK_IDS} codes; use filter for more` })
  @ResourceIdField({ each: true })
  ids?: QrCodeId[];
}

const TAG_LIST = { type: [String] as [StringConstructor], maxItems: 20, description: 'Tag names (compared without case)' };

export class BulkUpdateDto extends BulkSelectionDto {
  @ApiPropertyOptional({ type: () => BulkSetDto })
  @IsOptional()
  @IsObject({ message: 'set must be an object' })
  @ValidateNested()
  @Type(() => BulkSetDto)
  set?: BulkSetDto;

  @ApiPropertyOptional({ ...TAG_LIST, example: ['spring'] })
  @Allow()
  add_tags?: unknown;

  @ApiPropertyOptional({ ...TAG_LIST, example: ['winter'] })
  @Allow()
  remove_tags?: unknown;

  @ApiPropertyOptional({ type: () => ReplaceTargetDto, description: 'On url codes whose URL starts with `from`: `to` in its place' })
  @IsOptional()
  @IsObject({ message: 'replace_target must be an object {from, to}' })
  @ValidateNested()
  @Type(() => ReplaceTargetDto)
  replace_target?: ReplaceTargetDto;
}

export class BulkDeleteDto extends BulkSelectionDto {}

export class BulkEditQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], default: 'false', description: 'true: say what would change, change nothing' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'dry_run must be "true" or "false"' })
  dry_run?: 'true' | 'false';
}
