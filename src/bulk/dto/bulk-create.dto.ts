import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined } from 'class-validator';
import { CreateQrCodeDto } from '../../qrcodes/dto/create-qr-code.dto';
import { QrCodeBulkItemView } from '../../qrcodes/dto/qr-code.views';

export const MAX_BULK_ITEMS = 50;

/** Only the array is checked here: items are validated one by one so that valid ones still get created. */
export class BulkCreateDto {
  @ApiProperty({ type: [CreateQrCodeDto], minItems: 1, maxItems: MAX_BULK_ITEMS })
  @IsDefined() @IsArray() @ArrayMinSize(1) @ArrayMaxSize(MAX_BULK_ITEMS)
  qrcodes: unknown[];
}

class BulkFieldErrorView {
  @ApiProperty() field: string;
  @ApiProperty() message: string;
}

class BulkItemErrorView {
  @ApiProperty({ description: '0-based position in the submitted array' }) index: number;
  @ApiProperty({ type: [BulkFieldErrorView] }) errors: BulkFieldErrorView[];
}

class BulkSummaryView {
  @ApiProperty() total_submitted: number;
  @ApiProperty() total_created: number;
  @ApiProperty() total_failed: number;
  @ApiProperty() dynamic_created: number;
  @ApiProperty() static_created: number;
}

export class BulkCreateResultView {
  @ApiProperty({ type: [QrCodeBulkItemView] }) created: QrCodeBulkItemView[];
  @ApiProperty({ type: [BulkItemErrorView] }) errors: BulkItemErrorView[];
  @ApiProperty() summary: BulkSummaryView;
  @ApiProperty() request_id: string;
}
