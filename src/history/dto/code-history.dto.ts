import { ApiProperty } from '@nestjs/swagger';
import { PaginationView, REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import { PageLimit, PageNumber } from '../../common/validation/page-query';
import { QrCodeView } from '../../qrcodes/dto/qr-code.views';

export class CodeHistoryQuery {
  @PageNumber()
  page: number = 1;

  @PageLimit(20)
  limit: number = 20;
}

const VERSIONED_FIELDS_DESCRIPTION =
  'Versioned fields by their API names: content (the content object), status (active or paused), expires_at. ' +
  'Write-only fields (a password) appear as "changed" when set, null when not, never their value.';

export class CodeVersionView {
  @ApiProperty({ type: 'integer', minimum: 1, description: '1 is the code as created; each change of a versioned field adds one', example: 3 })
  version: number;

  @ApiProperty({ format: 'date-time', description: 'When the change committed (version 1: the creation)', example: '2026-11-26T14:05:12.345Z' })
  created_at: string;

  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Display prefix of the API key that made the change ("admin": the admin token; null: unknown, e.g. made before history was kept)',
    example: 'qr_live_AbCd',
  })
  key_prefix: string | null;

  @ApiProperty({ nullable: true, type: 'integer', description: 'The version this one restored, or null', example: null })
  restored_from: number | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: `The fields this version changed, as they were before it; null for version 1. ${VERSIONED_FIELDS_DESCRIPTION}`,
    example: { content: { url: 'https://example.com/spring-sale' } },
  })
  before: Record<string, unknown> | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: `The fields this version changed, as it set them; version 1: every versioned field. ${VERSIONED_FIELDS_DESCRIPTION}`,
    example: { content: { url: 'https://example.com/summer-sale' } },
  })
  after: Record<string, unknown>;
}

export class CodeHistoryView {
  @ApiProperty({ type: [CodeVersionView], description: 'Newest first' }) data: CodeVersionView[];
  @ApiProperty({ type: PaginationView, description: '`total`: the number of versions (the newest version number)' }) pagination: PaginationView;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class CodeRestoredView {
  @ApiProperty({ example: 'QR code restored to version 2' }) message: string;
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The version the restore made (restored_from names the one restored); the current version when nothing differed',
    example: 4,
  })
  version: number;
  @ApiProperty({ type: QrCodeView, description: 'The code as it is after the restore (the get representation)' }) qrcode: QrCodeView;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
