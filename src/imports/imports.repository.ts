import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { JobId, QrCodeId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';

export type ImportRowStatus = 'created' | 'failed' | 'valid';

export interface ImportRowResult {
  row: number;
  status: ImportRowStatus;
  id: QrCodeId | null;
  errors: FieldError[] | null;
}

/** An import's per-row results. Written in the transaction of the codes they created (a resumed import never repeats a row). */
@Injectable()
export class ImportsRepository {
  constructor(private readonly database: Database) {}

  async insertRows(tx: Tables, accountId: AccountId, jobId: JobId, rows: ImportRowResult[]): Promise<void> {
    if (rows.length === 0) return;
    await tx
      .forWholeAccount(accountId)
      .insertInto(
        'import_rows',
        rows.map((row) => ({
          job_id: jobId,
          row: row.row,
          status: row.status,
          qr_code_id: row.id,
          errors: row.errors ? JSON.stringify(row.errors) : null,
        })),
      )
      .execute();
  }

  /** One page of results, in row order; `status`: only those. */
  async page(accountId: AccountId, jobId: JobId, status: ImportRowStatus | undefined, page: number, limit: number): Promise<ImportRowResult[]> {
    let query = this.database.read
      .forAccount(accountId)
      .selectFrom('import_rows')
      .select(['row', 'status', 'qr_code_id', 'errors'])
      .where('job_id', '=', jobId);
    if (status) query = query.where('status', '=', status);
    const rows = await query
      .orderBy('row')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute();
    return rows.map((row) => ({
      row: row.row,
      status: row.status as ImportRowStatus,
      id: row.qr_code_id,
      errors: row.errors as FieldError[] | null,
    }));
  }

  /** Results by status. */
  async counts(accountId: AccountId, jobId: JobId): Promise<Record<ImportRowStatus, number>> {
    const rows = await this.database.read
      .forAccount(accountId)
      .selectFrom('import_rows')
      .select(['status', (eb) => eb.fn.countAll<bigint>().as('n')])
      .where('job_id', '=', jobId)
      .groupBy('status')
      .execute();
    const counts: Record<ImportRowStatus, number> = { created: 0, failed: 0, valid: 0 };
    for (const row of rows) counts[row.status as ImportRowStatus] = Number(row.n);
    return counts;
  }
}
