import { ApiProperty } from '@nestjs/swagger';
import { REQUEST_ID_PROPERTY } from '../../../common/openapi/common-views';

class FieldErrorView {
  @ApiProperty({ example: 'links[0].href' }) field: string;
  @ApiProperty({ example: 'href must be an absolute http(s) URL' }) message: string;
}

class Gs1ImportedItemView {
  @ApiProperty({ example: '/01/09506000134352' }) path: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) domain_id: string | null;
  @ApiProperty({ type: [Number], description: 'The CSV rows of this item (the header is row 1)', example: [2, 3] }) rows: number[];
  @ApiProperty({ enum: ['create', 'update', 'failed'], example: 'create' }) action: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The item (null when refused, or created in a dry run)' })
  id: string | null;
  @ApiProperty({ type: [FieldErrorView] }) errors: FieldErrorView[];
}

class Gs1ImportSummaryView {
  @ApiProperty({ type: 'integer', example: 1 }) created: number;
  @ApiProperty({ type: 'integer', example: 0 }) updated: number;
  @ApiProperty({ type: 'integer', example: 0 }) failed: number;
}

/** POST /api/v1/gs1/items/import */
export class Gs1LinkImportView {
  @ApiProperty({ example: false }) dry_run: boolean;
  @ApiProperty({ type: 'integer', description: 'Rows read (the header not counted)', example: 2 }) rows: number;
  @ApiProperty({ type: Gs1ImportSummaryView }) summary: Gs1ImportSummaryView;
  @ApiProperty({ type: [Gs1ImportedItemView] }) items: Gs1ImportedItemView[];
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}
