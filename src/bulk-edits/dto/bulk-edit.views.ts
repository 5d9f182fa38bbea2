import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JOB_STATUSES } from '../../infra/jobs/job';
import type { JobRecord } from '../../infra/jobs/job-queue.repository';
import type { BulkOutcome } from '../bulk-outcome';

class FieldErrorView {
  @ApiProperty({ example: 'status' }) field: string;
  @ApiProperty({ example: 'status is only for dynamic codes' }) message: string;
}

class BulkSampleView {
  @ApiProperty({ format: 'uuid', example: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' }) id: string;
  @ApiProperty({ example: 'Spring window' }) name: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { status: 'active', tags: ['spring'] },
    description: 'The fields changed, as they were',
  })
  before?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { status: 'paused', tags: ['spring', 'sale'] },
    description: 'As they are (or would be)',
  })
  after?: Record<string, unknown>;
}

class BulkCodeErrorsView {
  @ApiProperty({ format: 'uuid', example: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' }) id: string;
  @ApiProperty({ type: [FieldErrorView] }) errors: FieldErrorView[];
}

/** The answer of a bulk edit done within the request (or dry). */
export class BulkEditResultView {
  @ApiProperty({
    type: 'string',
    format: 'uuid',
    nullable: true,
    example: '6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    description: 'The bulk edit, read back by its GET (null for a dry run: nothing is kept)',
  })
  id: string | null;
  @ApiProperty({ example: false, description: 'true: nothing was written; the counts say what would change' }) dry_run: boolean;
  @ApiProperty({ example: 42, description: 'Codes selected' }) matched: number;
  @ApiProperty({ example: 40, description: 'Codes changed (deleted): those whose fields differed from the change set' }) changed: number;
  @ApiProperty({ example: 0, description: 'Codes the update refused on their own (listed in errors, the first 20)' }) failed: number;
  @ApiProperty({ type: [BulkSampleView], description: 'The first 10 codes changed, with the fields changed before and after' })
  sample: BulkSampleView[];
  @ApiProperty({ type: [BulkCodeErrorsView] }) errors: BulkCodeErrorsView[];
}

/** A bulk edit run as a job (over 100 codes): its progress, then its result. */
export class BulkEditJobView {
  @ApiProperty({ format: 'uuid', example: '6c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f' }) id: string;
  @ApiProperty({ enum: JOB_STATUSES, example: 'running' }) status: string;
  @ApiProperty({ enum: ['update', 'delete'], example: 'update' }) operation: string;
  @ApiProperty({ example: 2500, description: 'Codes selected when the edit was asked' }) matched: number;
  @ApiProperty({ example: 1200, description: 'Codes walked so far' }) done: number;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Once done: codes changed' }) changed: number | null;
  @ApiProperty({ type: 'integer', nullable: true, example: null, description: 'Once done: codes refused on their own' }) failed: number | null;
  @ApiProperty({ type: [BulkSampleView], description: 'Once done: the first 10 codes changed' }) sample: BulkSampleView[];
  @ApiProperty({ type: [BulkCodeErrorsView], description: 'Once done: the first 20 codes refused' }) errors: BulkCodeErrorsView[];
  @ApiProperty({ type: 'string', nullable: true, example: null }) error: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-29T12:00:00.000Z' }) created_at: string;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: null }) finished_at: string | null;
}

export function toResultView(id: string | null, outcome: BulkOutcome, dryRun: boolean) {
  return { id, dry_run: dryRun, ...outcome };
}

export function toJobView(job: JobRecord) {
  const result = job.result as Partial<BulkOutcome> | null;
  return {
    id: job.id,
    status: job.status,
    operation: job.params.mode,
    matched: job.total,
    done: job.done,
    changed: result?.changed ?? null,
    failed: result?.failed ?? null,
    sample: result?.sample ?? [],
    errors: result?.errors ?? [],
    error: job.error,
    created_at: job.createdAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}
