import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { Database } from '../database/database.service';

/** What a claim of a task's period found: claimed (the caller runs it), or when to look again. */
export type PeriodClaim = { claimed: true; token: string; claims: number } | { claimed: false; lookAgainAt: Date | null };

/**
 * The runs of periodic tasks (docs/architecture.md#jobs): one row per task and period. The
 * primary key makes a period run once per cluster; the row's lease lets another instance take over
 * a run whose instance died (its lease ran out before it finished).
 */
@Injectable()
export class PeriodicTaskRunsRepository {
  constructor(private readonly database: Database) {}

  /**
   * Claims the task's period: a new row, or one whose run's lease ran out unfinished (its instance
   * died, or it failed and waits `retry`). Otherwise tells when to look again: the lease's end while
   * another instance runs it, null once the period is done.
   */
  async claim(task: string, periodStart: Date, now: Date, leaseUntil: Date, token: string): Promise<PeriodClaim> {
    return this.database.workerTransaction(async (tx) => {
      const db = tx.shared;
      const taken = await sql<{ claims: number }>`
        INSERT INTO periodic_task_runs (task, period_start, lease_token, lease_expires_at, started_at)
        VALUES (${task}, ${periodStart}::timestamptz, ${token}::uuid, ${leaseUntil}::timestamptz, ${now}::timestamptz)
        ON CONFLICT (task, period_start) DO UPDATE SET lease_token = EXCLUDED.lease_token,
          lease_expires_at = EXCLUDED.lease_expires_at, claims = periodic_task_runs.claims + 1
        WHERE periodic_task_runs.finished_at IS NULL AND periodic_task_runs.lease_expires_at <= ${now}::timestamptz
        RETURNING claims`.execute(db);
      if (taken.rows.length > 0) return { claimed: true, token, claims: Number(taken.rows[0].claims) };
      const row = await db
        .selectFrom('periodic_task_runs')
        .select(['finished_at', 'lease_expires_at'])
        .where('task', '=', task)
        .where('period_start', '=', periodStart)
        .executeTakeFirst();
      return { claimed: false, lookAgainAt: !row || row.finished_at ? null : row.lease_expires_at };
    });
  }

  /** Extends the run's lease while it still holds it; false once another instance took the run over. */
  async renew(task: string, periodStart: Date, token: string, leaseUntil: Date): Promise<boolean> {
    const result = await this.database.workerTransaction((tx) =>
      tx.shared
        .updateTable('periodic_task_runs')
        .set({ lease_expires_at: leaseUntil })
        .where('task', '=', task)
        .where('period_start', '=', periodStart)
        .where('lease_token', '=', token)
        .executeTakeFirst(),
    );
    return result.numUpdatedRows > 0n;
  }

  /** The run ended: done (`error` null), or failed and due again at `retryAt` (by any instance). */
  async end(task: string, periodStart: Date, token: string, end: { now: Date; error: string | null; retryAt: Date }): Promise<void> {
    await this.database.workerTransaction((tx) =>
      tx.shared
        .updateTable('periodic_task_runs')
        .set(
          end.error === null
            ? { finished_at: end.now, lease_token: null, lease_expires_at: null, last_error: null }
            : { lease_token: null, lease_expires_at: end.retryAt, last_error: end.error.slice(0, 500) },
        )
        .where('task', '=', task)
        .where('period_start', '=', periodStart)
        .where('lease_token', '=', token)
        .execute(),
    );
  }

  /** Gives an unfinished run back at once (a shutdown): another instance takes it over at its next look. */
  async release(task: string, periodStart: Date, token: string, now: Date): Promise<void> {
    await this.database.workerTransaction((tx) =>
      tx.shared
        .updateTable('periodic_task_runs')
        .set((eb) => ({ lease_token: null, lease_expires_at: now, claims: eb('claims', '-', 1) }))
        .where('task', '=', task)
        .where('period_start', '=', periodStart)
        .where('lease_token', '=', token)
        .execute(),
    );
  }

  /** When each task last finished a run (/metrics). */
  async lastSuccesses(): Promise<Map<string, Date>> {
    const rows = await this.database.workerTransaction((tx) =>
      tx.shared
        .selectFrom('periodic_task_runs')
        .select(['task', (eb) => eb.fn.max('finished_at').as('last')])
        .where('finished_at', 'is not', null)
        .groupBy('task')
        .execute(),
    );
    return new Map(rows.flatMap((row) => (row.last ? [[row.task, new Date(row.last as unknown as string | Date)]] : [])));
  }

  /** Forgets runs that started before `cutoff` (the table only needs the current periods and a recent past). */
  async forgetBefore(cutoff: Date): Promise<number> {
    const result = await this.database.workerTransaction((tx) =>
      tx.shared.deleteFrom('periodic_task_runs').where('period_start', '<', cutoff).where('finished_at', 'is not', null).executeTakeFirst(),
    );
    return Number(result.numDeletedRows);
  }
}
