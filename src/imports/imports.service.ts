import { ForbiddenException, HttpException, HttpStatus, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { checkItemShape } from '../bulk/bulk.service';
import { allows } from '../common/auth/scopes';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, JobId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { FoldersService } from '../folders/folders.service';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { currentRequest } from '../infra/http/request-context';
import { submittedBy } from '../infra/jobs/job';
import { type JobRecord, JobQueueRepository } from '../infra/jobs/job-queue.repository';
import { JobFailed, type JobRun, JobWorker } from '../infra/jobs/job-worker.service';
import { itemFromCsvRow } from '../qrcodes/csv/qr-code-csv';
import type { CreateQrCodeDto } from '../qrcodes/dto/create-qr-code.dto';
import type { NewQrCode } from '../qrcodes/qr-code.record';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { type CsvFile, readCsvFile } from './csv-file';
import { type ImportRowResult, type ImportRowStatus, ImportsRepository } from './imports.repository';

/** Rows checked and created per transaction: a resumed import starts after the last batch committed. */
export const IMPORT_BATCH = 500;
/** An import's results are kept this long after it ends. */
const KEEP_RESULTS_MS = 7 * 86_400_000;
/** Imports and exports an account may have waiting or running at once; more answer 429. */
export const MAX_UNFINISHED_JOBS = 10;

export interface ImportParams {
  dry_run: boolean;
}

/**
 * CSV imports (docs/exports-and-imports.md#csv-import): the file is read and its header checked
 * when it is posted (a file that cannot be read is a 400, nothing queued); its rows are then
 * checked and created as a job, a batch at a time, each batch's codes, row results and progress in
 * one transaction, through the QR code service's create path (its rules, the key's folders, the
 * audit log). A row that fails is reported and the others go on.
 */
@Injectable()
export class ImportsService {
  constructor(
    private readonly jobs: JobQueueRepository,
    private readonly worker: JobWorker,
    private readonly rows: ImportsRepository,
    private readonly qrCodes: QrCodesService,
    private readonly folders: FoldersService,
    private readonly database: Database,
    private readonly audit: AuditTrail,
  ) {
    worker.register('import', { run: (run) => this.run(run), keepForMs: KEEP_RESULTS_MS });
  }

  async submit(accountId: AccountId, csv: string, dryRun: boolean): Promise<JobRecord> {
    const principal = currentRequest()?.principal;
    // The import creates codes: the key must be allowed to, whatever imports:write allows.
    if (principal && !dryRun && !allows(principal.scopes, 'qrcodes:write')) {
      throw new ForbiddenException('This API key lacks the scope qrcodes:write, which an import (not a dry run) needs');
    }
    const read = readCsvFile(csv);
    if (!read.ok) throw new ValidationFailedException(read.errors);
    if ((await this.jobs.unfinishedCount(accountId, 'import')) >= MAX_UNFINISHED_JOBS) {
      throw new HttpException(
        `At most ${MAX_UNFINISHED_JOBS} imports may wait or run at once; try again when one has finished`,
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const id = randomUUID() as JobId;
    const params: ImportParams = { dry_run: dryRun };
    await this.database.transaction(async (tx) => {
      await this.jobs.insert(tx, accountId, {
        id,
        kind: 'import',
        params: { ...params },
        input: csv,
        submittedBy: submittedBy(currentRequest()),
        total: read.file.rows.length,
      });
      await this.audit.record(tx, {
        accountId,
        action: 'import.create',
        resourceType: 'import',
        resourceId: id,
        after: { rows: read.file.rows.length, dry_run: dryRun },
      });
    });
    this.worker.nudge();
    return (await this.jobs.find(accountId, id, 'import'))!;
  }

  async get(accountId: AccountId, id: JobId): Promise<JobRecord> {
    const job = await this.jobs.find(accountId, id, 'import');
    if (!job) throw new NotFoundException('Import not found');
    return job;
  }

  async results(accountId: AccountId, id: JobId, status: ImportRowStatus | undefined, page: number, limit: number) {
    const [job, counts, rows] = await Promise.all([
      this.get(accountId, id),
      this.rows.counts(accountId, id),
      this.rows.page(accountId, id, status, page, limit),
    ]);
    return { job, counts, rows };
  }

  /** The job: from the first row not yet done, a batch at a time. */
  private async run(run: JobRun): Promise<Record<string, unknown>> {
    const { job } = run;
    const read = readCsvFile(job.input ?? '');
    if (!read.ok) throw new JobFailed('The CSV can no longer be read');
    const dryRun = (job.params as unknown as ImportParams).dry_run;
    const folders = await this.folderNames(job.accountId);
    const rows = read.file.rows;
    for (let start = job.done; start < rows.length; start += IMPORT_BATCH) {
      const batch = rows.slice(start, start + IMPORT_BATCH);
      const done = start + batch.length;
      await this.importBatch(run, batch, folders, dryRun, done);
    }
    const counts = await this.rows.counts(job.accountId, job.id);
    return { rows: rows.length, created: counts.created, failed: counts.failed, valid: counts.valid, dry_run: dryRun };
  }

  private async importBatch(run: JobRun, batch: CsvFile['rows'], folders: Map<string, FolderId[]>, dryRun: boolean, done: number) {
    const { job } = run;
    // Each row through the bulk endpoint's checks: its shape, then the create rules and folder ownership.
    const shaped = batch.map((entry) => {
      if (entry.problem) return { row: entry.row, ok: false as const, errors: [entry.problem] };
      const read = itemFromCsvRow(entry.cells);
      const errors: FieldError[] = [...read.errors];
      if (read.folderName !== undefined) {
        const ids = folders.get(read.folderName) ?? [];
        if (ids.length === 1) read.item.folder_id = ids[0];
        else
          errors.push({
            field: 'folder_name',
            message:
              ids.length === 0
                ? `no folder named "${read.folderName}" among yours`
                : `${ids.length} of your folders are named "${read.folderName}"; give folder_id`,
          });
      }
      if (errors.length > 0) return { row: entry.row, ok: false as const, errors };
      const shape = checkItemShape(read.item);
      return shape.ok ? { row: entry.row, ok: true as const, dto: shape.dto } : { row: entry.row, ok: false as const, errors: shape.errors };
    });
    const dtos: CreateQrCodeDto[] = shaped.flatMap((item) => (item.ok ? [item.dto] : []));
    const checks = await this.qrCodes.checkNew(job.accountId, dtos);
    const results: ImportRowResult[] = [];
    const valid: Array<{ row: number; code: NewQrCode }> = [];
    let next = 0;
    for (const item of shaped) {
      const check = item.ok ? checks[next++] : item;
      if (check.ok) valid.push({ row: item.row, code: check.code });
      else results.push({ row: item.row, status: 'failed', id: null, errors: check.errors });
    }
    if (dryRun || valid.length === 0) {
      for (const item of valid) results.push({ row: item.row, status: 'valid', id: null, errors: null });
      await this.database.transaction(async (tx) => {
        await this.rows.insertRows(tx, job.accountId, job.id, results);
        await run.progress(done, undefined, tx);
      });
      return;
    }
    await this.qrCodes.insert(
      job.accountId,
      valid.map((item) => item.code),
      true,
      async (tx, inserted) => {
        // A fresh array per try: the insert is tried again when a short code collides.
        const created = inserted.map((code, index): ImportRowResult => ({ row: valid[index].row, status: 'created', id: code.id, errors: null }));
        await this.rows.insertRows(tx, job.accountId, job.id, [...results, ...created]);
        await run.progress(done, undefined, tx);
      },
    );
  }

  private async folderNames(accountId: AccountId): Promise<Map<string, FolderId[]>> {
    const byName = new Map<string, FolderId[]>();
    for (const folder of await this.folders.list(accountId)) byName.set(folder.name, [...(byName.get(folder.name) ?? []), folder.id as FolderId]);
    return byName;
  }
}
