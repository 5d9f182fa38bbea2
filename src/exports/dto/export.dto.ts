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
export const EXPORT_FORMATS = ['svg', 'png', 'pdf'] as const;

/** A ZIP export: which codes (ids, or the list's filters; nothing: all of yours), and how each file is drawn. */
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

  @ApiPropertyOptional({ enum: LIST_SORTS, default: 'newest', description: 'Order of the files in the ZIP and its manifest' })
  @IsOptional()
  @IsIn(LIST_SORTS, { message: `sort must be one of: ${LIST_SORTS.join(', ')}` })
  sort?: ListSort;

  @ApiProperty({
    enum: EXPORT_FORMATS,
    description: "The files' format: svg, png (at `size` px, or `width_mm` at `dpi`) or vector pdf",
    example: 'svg',
  })
  @IsDefined()
  @IsIn(EXPORT_FORMATS, { message: `format must be one of: ${EXPORT_FORMATS.join(', ')}` })
  format: (typeof EXPORT_FORMATS)[number];

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
};

export class ExportJobView {
  @ApiProperty({ format: 'uuid', example: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9' }) id: string;
  @ApiProperty({ enum: JOB_STATUSES, example: 'running' }) status: string;
  @ApiProperty({ enum: EXPORT_FORMATS, example: 'svg' }) format: string;
  @ApiProperty({ type: 'integer', description: 'Files in the ZIP (besides manifest.csv)', example: 1000 }) total: number;
  @ApiProperty({ type: 'integer', description: 'Files written so far', example: 350 }) done: number;
  @ApiPropertyOptional({ type: 'integer', nullable: true, description: 'Size of the ZIP once done', example: null }) bytes: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Where to fetch the ZIP once done', example: null }) download_url: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'Why the export failed (status failed)', example: null }) error: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) finished_at: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'The ZIP is kept until then (24 h after it is done)' })
  expires_at: string | null;
  @ApiProperty(REQUEST_ID_PROPERTY) request_id: string;
}

export function toExportView(job: JobRecord, baseUrl: string) {
  const bytes = typeof job.result?.bytes === 'number' ? job.result.bytes : null;
  return {
    id: job.id,
    status: job.status,
    format: String(job.params.format),
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
