import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { FolderId, QrCodeId } from '../../common/ids/resource-ids';
import { REQUEST_ID_PROPERTY } from '../../common/openapi/common-views';
import type { BodyExample } from '../../common/openapi/json-body';
import { ResourceIdField } from '../../common/validation/resource-id.pipe';
import { JOB_STATUSES } from '../../infra/jobs/job';
import type { JobRecord } from '../../infra/jobs/job-queue.repository';
import { QR_TYPES, type QrType } from '../../qrcodes/content';
import { LIST_SORTS, type ListSort } from '../../qrcodes/dto/list-qr-codes.query';
import { QR_STATUSES, type QrStatus } from '../../qrcodes/qr-code-status';

export const MAX_ZIP_CODES = 1000;
/** The ZIP's file formats; `csv` is the list as one CSV file instead of a ZIP. */
export const IMAGE_FORMATS = ['svg', 'png', 'pdf'] as const;
export const EXPORT_FORMATS = [...IMAGE_FORMATS, 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The CSV's views: the import format, or the report for people (docs/exports-and-imports.md#the-report-csv). */
export const CSV_VIEWS = ['import', 'report'] as const;
export type CsvView = (typeof CSV_VIEWS)[number];

/**
 * An export: which codes (ids, or the list's filters; nothing: all of yours), and either how each
 * image file of the ZIP is drawn, or (`format: csv`) the CSV's view, as GET /api/v1/qrcodes.csv takes them.
 */
export class CreateExportDto {
  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_ZIP_CODES,
    description: 'These codes (then no filter may be given)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ZIP_CODES, { message: `ids must hold at most ${MAX_ZIP_CODES} codes` })
  @ResourceIdField({ each: true })
  ids?: QrCodeId[];

  @ApiPropertyOptional({ type: String, format: 'uuid', description: 'The codes of this folder (with the other filters)' })
  @IsOptional()
  @ResourceIdField()
  folder_id?: FolderId;

  @ApiPropertyOptional({ enum: QR_TYPES })
  @IsOptional()
  @IsIn(QR_TYPES, { message: `type must be one of: ${QR_TYPES.join(', ')}` })
  type?: QrType;

  @ApiPropertyOptional({ enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'is_dynamic must be "true" or "false"' })
  is_dynamic?: 'true' | 'false';

  @ApiPropertyOptional({ maxLength: 200, description: 'As the list: case-insensitive match in name and content' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: QR_STATUSES })
  @IsOptional()
  @IsIn(QR_STATUSES, { message: `status must be one of: ${QR_STATUSES.join(', ')}` })
  status?: QrStatus;

  @ApiPropertyOptional({ enum: LIST_SORTS, default: 'newest', description: 'Order of the files in the ZIP and its manifest, or of the CSV lines' })
  @IsOptional()
  @IsIn(LIST_SORTS, { message: `sort must be one of: ${LIST_SORTS.join(', ')}` })
  sort?: ListSort;

  @ApiProperty({
    enum: EXPORT_FORMATS,
    description:
      'A ZIP of image files: svg, png (at `size` px, or `width_mm` at `dpi`) or vector pdf. `csv`: every selected code (no limit) in one CSV ' +
      'file, the bytes `GET /api/v1/qrcodes.csv` streams for the same filters, sort and `view`, built by a worker (for large accounts)',
    example: 'svg',
  })
  @IsDefined()
  @IsIn(EXPORT_FORMATS, { message: `format must be one of: ${EXPORT_FORMATS.join(', ')}` })
  format: ExportFormat;

  @ApiPropertyOptional({
    enum: CSV_VIEWS,
    default: 'import',
    description:
      'With `format: csv`. `import` (default): the columns `POST /api/v1/imports` reads. `report`: one line per code with id, name, type, ' +
      'status, dynamic_url, tags, folder, scans, unique_visitors (in `from`..`to`), created_at, updated_at.',
  })
  @IsOptional()
  @IsIn(CSV_VIEWS, { message: `view must be one of: ${CSV_VIEWS.join(', ')}` })
  view?: CsvView;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      "With `view: report`: start of the unique visitors' window, inclusive (ISO 8601). Default: 30 days before `to` (as the export is asked for).",
  })
  @IsOptional()
  @IsString({ message: 'from must be a single ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'With `view: report`: end of the window, exclusive (ISO 8601). Default: when the export is asked for.',
  })
  @IsOptional()
  @IsString({ message: 'to must be a single ISO 8601 date-time' })
  to?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 100, maximum: 4000, description: 'Pixels (default 300 unless width_mm is given)' })
  @IsOptional()
  @IsInt({ message: 'size must be an integer' })
  @Min(100)
  @Max(4000)
  size?: number;

  @ApiPropertyOptional({ type: 'number', minimum: 10, maximum: 1000, description: 'The printed width in millimetres (with dpi), instead of size' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'width_mm must be a number' })
  @Min(10)
  @Max(1000)
  width_mm?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 72, maximum: 1200, default: 300, description: 'Dots per inch, with width_mm' })
  @IsOptional()
  @IsInt({ message: 'dpi must be an integer' })
  @Min(72)
  @Max(1200)
  dpi?: number;
}

export const CREATE_EXPORT_EXAMPLES: Record<string, BodyExample<CreateExportDto>> = {
  png: { summary: 'Every code as PNG files of 600 px', value: { format: 'png', size: 600 } },
  print: {
    summary: 'Dynamic URL codes, oldest first, as vector PDFs 40 mm wide',
    value: { type: 'url', is_dynamic: 'true', sort: 'oldest', format: 'pdf', width_mm: 40, dpi: 300 },
  },
  svg: { summary: 'Every code as SVG files of 300 px (a folder_id or ids choose fewer)', value: { format: 'svg', size: 300 } },
  csv: { summary: 'Every code as one CSV in the import format (any number of codes)', value: { format: 'csv' } },
  report: {
    summary: 'The report CSV of your dynamic codes, by name',
    value: { format: 'csv', view: 'report', is_dynamic: 'true', sort: 'name-asc' },
  },
};

export class ExportJobView {
  @ApiProperty({ format: 'uuid', example: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9' }) id: string;
  @ApiProperty({ enum: JOB_STATUSES, example: 'running' }) status: string;
  @ApiProperty({ enum: EXPORT_FORMATS, example: 'svg' }) format: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: "A CSV's view, `import` or `report` (null for a ZIP)", example: null })
  view: CsvView | null;
  @ApiProperty({ type: 'integer', description: 'Files in the ZIP (besides manifest.csv), or codes in the CSV', example: 1000 }) total: number;
  @ApiProperty({ type: 'integer', description: 'Files (or CSV codes) written so far', example: 350 }) done: number;
  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Size of the ZIP or CSV once done', example: null }) bytes: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Where to fetch the file once done', example: null }) download_url: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'Why the export failed (status failed)', example: null }) error: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) finished_at: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'The file is kept until then (24 h after it is done)' })
  expires_at: string | null;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export function toExportView(job: JobRecord, baseUrl: string) {
  const bytes = typeof job.result?.bytes === 'number' ? job.result.bytes : null;
  return {
    id: job.id,
    status: job.status,
    format: String(job.params.format),
    view: job.params.format === 'csv' ? ((job.params.view as CsvView | undefined) ?? 'import') : null,
    total: job.total,
    done: job.done,
    bytes,
    download_url: job.status === 'done' ? `${baseUrl}/api/v1/exports/${job.id}/download` : null,
    error: job.error,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
    expires_at: job.expiresAt?.toISOString() ?? null,
  };
}
