import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import { FieldErrorView } from '../../common/openapi/error-responses';
import { JOB_STATUSES } from '../../infra/jobs/job';
import type { JobRecord } from '../../infra/jobs/job-queue.repository';
import { MAX_IMPORT_ROWS } from '../csv-file';
import type { ImportRowResult } from '../imports.repository';

export class CreateImportQuery {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'true: check every row, write nothing (rows come back as valid or failed)',
  })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'dry_run must be "true" or "false"' })
  dry_run?: 'true' | 'false';
}

const ROW_STATUSES = ['created', 'failed', 'valid'] as const;

export class ImportResultsQuery {
  @ApiPropertyOptional({ type: 'integer', default: 1, minimum: 1, maximum: MAX_IMPORT_ROWS })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be an integer' })
  @Min(1)
  @Max(MAX_IMPORT_ROWS)
  page: number = 1;

  @ApiPropertyOptional({ type: 'integer', default: 1000, minimum: 1, maximum: MAX_IMPORT_ROWS, description: 'Row results per page' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_IMPORT_ROWS)
  limit: number = 1000;

  @ApiPropertyOptional({ enum: ROW_STATUSES, description: 'Only rows with this result (failed: the ones to fix)' })
  @IsOptional()
  @IsIn(ROW_STATUSES, { message: `status must be one of: ${ROW_STATUSES.join(', ')}` })
  status?: (typeof ROW_STATUSES)[number];
}

export const IMPORT_CSV_EXAMPLE =
  'type,name,is_dynamic,folder_name,style,content.url,content.text\r\n' +
  'url,Spring poster,true,,,https://example.com/spring,\r\n' +
  'text,Table 12,false,,"{""dotsOptions"":{""type"":""rounded""}}",,Ask for the special\r\n';

class ImportRowView {
  @ApiProperty({
    type: 'integer',
    description: 'The record number in the file, the header being 1 (a spreadsheet row number unless cells hold line breaks)',
    example: 3,
  })
  row: number;
  @ApiProperty({ enum: ROW_STATUSES, example: 'failed' }) status: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The code created (status created)', example: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' })
  id?: string;
  @ApiPropertyOptional({ type: [FieldErrorView], description: "Why the row failed: the bulk create's fields and messages" })
  errors?: FieldErrorView[];
}

class ImportCountsView {
  @ApiProperty({ type: 'integer', example: 9900 }) created: number;
  @ApiProperty({ type: 'integer', example: 100 }) failed: number;
  @ApiProperty({ type: 'integer', description: 'Rows a dry run found valid', example: 0 }) valid: number;
}

export class ImportJobView {
  @ApiProperty({ format: 'uuid', example: '9a4f1c2e-7b3d-4e8a-b1c0-2d5e6f7a8b9c' }) id: string;
  @ApiProperty({ enum: JOB_STATUSES, example: 'running' }) status: string;
  @ApiProperty({ example: false }) dry_run: boolean;
  @ApiProperty({ type: 'integer', description: 'Rows in the file', example: 10000 }) total: number;
  @ApiProperty({ type: 'integer', description: 'Rows checked (and created) so far', example: 4500 }) done: number;
  @ApiPropertyOptional({ type: String, description: 'Why the import failed as a whole (status failed)', example: null, nullable: true }) error?:
    string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) finished_at: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'The results are kept until then' }) expires_at:
    string | null;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export class ImportResultsView extends ImportJobView {
  @ApiProperty({ type: ImportCountsView }) counts: ImportCountsView;
  @ApiProperty({ type: [ImportRowView], description: 'Row results, in row order, one page of them' }) rows: ImportRowView[];
}

export function toImportView(job: JobRecord) {
  return {
    id: job.id,
    status: job.status,
    dry_run: job.params.dry_run === true,
    total: job.total,
    done: job.done,
    error: job.error,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    expires_at: job.expiresAt?.toISOString() ?? null,
  };
}

export function toRowView(row: ImportRowResult) {
  return { row: row.row, status: row.status, ...(row.id && { id: row.id }), ...(row.errors && { errors: row.errors }) };
}
