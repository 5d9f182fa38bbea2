import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import { FieldErrorView } from '../../common/openapi/error-responses';
import type { BodyExample } from '../../common/openapi/json-body';
import { CreateQrCodeDto } from '../../qrcodes/dto/create-qr-code.dto';
import { QrCodeBulkItemView } from '../../qrcodes/dto/qr-code.views';
import { ValidatedPerItem } from '../../infra/http/validation.pipe';

export const MAX_BULK_ITEMS = 50;

/** Only the array is checked here: items are validated one by one so that valid ones still get created. */
export class BulkCreateDto {
  @ApiProperty({ type: [CreateQrCodeDto], minItems: 1, maxItems: MAX_BULK_ITEMS, description: 'Items in the single-create shape' })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_ITEMS)
  @ValidatedPerItem()
  qrcodes: unknown[];
}

/** Request examples; each is valid as it stands (see qr-code.examples.ts). */
export const BULK_CREATE_EXAMPLES: Record<string, BodyExample<BulkCreateDto>> = {
  mixed: {
    summary: 'A dynamic link, Wi-Fi credentials and a calendar event',
    value: {
      qrcodes: [
        { type: 'url', name: 'Flyer A', content: { url: 'https://example.com/flyer-a' }, is_dynamic: true },
        { type: 'wifi', name: 'Guest Wi-Fi', content: { ssid: 'Cafe Guest', password: 'correct horse battery', encryption: 'WPA' } },
        {
          type: 'event',
          name: 'Open day',
          content: { title: 'Open day', start: '2030-06-01T18:00:00+02:00', end: '2030-06-01T21:00:00+02:00', location: 'Main Hall' },
          style: { dotsOptions: { type: 'rounded', color: '#b71c1c' } },
        },
      ],
    },
  },
  partialSuccess: {
    summary: 'Partial success: the valid item is created, the other is listed in errors (still 201)',
    value: {
      qrcodes: [
        { type: 'text', content: { text: 'Table 12, ask for the special' } },
        { type: 'url', content: { url: 'ftp://example.com/menu.pdf' } },
      ],
    },
  },
};

class BulkItemErrorView {
  @ApiProperty({ type: 'integer', minimum: 0, description: '0-based position in the submitted array', example: 1 }) index: number;
  @ApiProperty({ type: [FieldErrorView] }) errors: FieldErrorView[];
}

class BulkSummaryView {
  @ApiProperty({ type: 'integer', minimum: 0, example: 2 }) total_submitted: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 }) total_created: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 }) total_failed: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 0 }) dynamic_created: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 }) static_created: number;
}

export class BulkCreateResultView {
  @ApiProperty({ type: [QrCodeBulkItemView], description: 'The created codes, in submission order' }) created: QrCodeBulkItemView[];
  @ApiProperty({ type: [BulkItemErrorView], description: 'One entry per failed item; empty when none failed' }) errors: BulkItemErrorView[];
  @ApiProperty({ type: BulkSummaryView }) summary: BulkSummaryView;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
