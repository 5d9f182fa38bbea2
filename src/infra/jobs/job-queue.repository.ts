import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { JobId } from '../../common/ids/resource-ids';
import { Database } from '../database/database.service';
import type { Tables } from '../database/tables';
import type { JobKind, JobStatus, SubmittedBy } from './job';
import type { QueueDepth } from './job-runner.service';
import { leaseIsFree, newLeaseToken } from './lease';

/** Unfinished jobs looked at per claim (each account gets up to its free slots among them). */
const CANDIDATES_PER_CLAIM = 50;

/** A job as the worker runs it. */
export interface ClaimedJob {
  id: JobId;
  accountId: AccountId;
  kind: JobKind;
  params: Record<string, unknown>;
  input: string | null;
  submittedBy: SubmittedBy;
  total: number;
  done: number;
  attempts: number;
  leaseToken: string;
}

/** A job as the API shows it. */
export interface JobRecord {
  id: JobId;
  kind: JobKind;
  status: JobStatus;
  params: Record<string, unknown>;
  total: number;
  done: number;
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
}

export interface NewJob {
  id: JobId;
  kind: JobKind;
  params: Record<string, unknown>;
  input?: string;
  submittedBy: SubmittedBy;
  total: number;
}

export interface ClaimOptions {
  now: Date;
  leaseUntil: Date;
  /** How many jobs this instance takes at most. */
  limit: number;
  /** Jobs running at once per account, over all instances. */
  perAccount: number;
  /** A job claimed this many times already fails instead of running again (it keeps killing its instance, or failing). */
  maxAttempts: number;
}

/**
 * The job queue's queries. Submitting, reading and finishing are the account's (`forAccount`);
 * the claim is across accounts, like the webhook delivery worker's: unfinished jobs are locked
 * with SKIP LOCKED (another instance claiming at the same moment takes others), their accounts
 * are locked (FOR NO KEY UPDATE) so that two instances count an account's running jobs one after
 * the other, and each account gets at most its free slots. A lease outlives a job's progress
 * reports many times over; one left by an instance that died runs out and the job is claimed again.
 */
@Injectable()
export class JobQueueRepository {
  constructor(private readonly database: Database) {}

  /** Adds a queued job in the caller's transaction. */
  async insert(tx: Tables, accountId: AccountId, job: NewJob): Promise<void> {
    await tx
      .forWholeAccount(accountId)
      .insertInto('jobs', [
        {
          id: job.id,
          kind: job.kind,
          params: JSON.stringify(job.params),
          input: job.input ?? null,
          submitted_by: JSON.stringify(job.submittedBy),
          total: job.total,
        },
      ])
      .execute();
  }

  async find(accountId: AccountId, id: JobId, kind: JobKind): Promise<JobRecord | null> {
    const row = await this.database.read
      .forWholeAccount(accountId)
      .selectFrom('jobs')
      .select(['id', 'kind', 'status', 'params', 'total', 'done', 'result', 'error', 'created_at', 'started_at', 'finished_at', 'expires_at'])
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      kind: row.kind as JobKind,
      status: row.status as JobStatus,
      params: row.params as Record<string, unknown>,
      total: row.total,
      done: row.done,
      result: row.result as Record<string, unknown> | null,
      error: row.error,
      createdAt: row.created_at,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      expiresAt: row.expires_at,
    };
  }

  /** Claims up to `limit` unfinished jobs whose lease is free, within each account's free slots. */
  async claim(kinds: readonly JobKind[], options: ClaimOptions): Promise<ClaimedJob[]> {
    if (kinds.length === 0 || options.limit <= 0) return [];
    const token = newLeaseToken();
    const { now, leaseUntil, perAccount, maxAttempts } = options;
    return this.database.workerTransaction(async (tx) => {
      const db = tx.anyAccount;
      const candidates = await db
        .selectFrom('jobs')
        .select(['id', 'account_id', 'attempts'])
        .where('status', 'in', ['queued', 'running'])
        .where('kind', 'in', [...kinds])
        .where(leaseIsFree('lease_expires_at', now))
        .orderBy('created_at')
        .limit(CANDIDATES_PER_CLAIM)
        .forUpdate()
        .skipLocked()
        .execute();
      if (candidates.length === 0) return [];
      const accountIds = [...new Set(candidates.map((job) => job.account_id))].sort();
      const locked = await db.selectFrom('accounts').select('id').where('id', 'in', accountIds).orderBy('id').forNoKeyUpdate().skipLocked().execute();
      const lockedIds = locked.map((account) => account.id);
      if (lockedIds.length === 0) return [];
      // A statement of its own, after the locks: it sees the leases of claims committed meanwhile.
      const running = await db
        .selectFrom('jobs')
        .select(['account_id', (eb) => eb.fn.countAll<bigint>().as('n')])
        .where('account_id', 'in', lockedIds)
        .where('status', '=', 'running')
        .where('lease_expires_at', '>', now)
        .groupBy('account_id')
        .execute();
      const slots = new Map(lockedIds.map((id) => [id, perAccount]));
      for (const row of running) slots.set(row.account_id, perAccount - Number(row.n));
      const chosen: JobId[] = [];
      const exhausted: JobId[] = [];
      for (const job of candidates) {
        if (chosen.length >= options.limit) break;
        const left = slots.get(job.account_id) ?? 0;
        if (left <= 0) continue;
        if (job.attempts >= maxAttempts) {
          exhausted.push(job.id);
          continue;
        }
        slots.set(job.account_id, left - 1);
        chosen.push(job.id);
      }
      if (exhausted.length > 0) {
        await db
          .updateTable('jobs')
          .set({ status: 'failed', error: `Stopped after ${maxAttempts} attempts`, finished_at: now, lease_token: null, lease_expires_at: null })
          .where('id', 'in', exhausted)
          .execute();
      }
      if (chosen.length === 0) return [];
      const rows = await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'running',
          lease_token: token,
          lease_expires_at: leaseUntil,
          attempts: eb('attempts', '+', 1),
          started_at: eb.fn.coalesce('started_at', eb.val(now)),
        }))
        .where('id', 'in', chosen)
        .returning(['id', 'account_id', 'kind', 'params', 'input', 'submitted_by', 'total', 'done', 'attempts'])
        .execute();
      return rows.map((row) => ({
        id: row.id,
        accountId: row.account_id,
        kind: row.kind as JobKind,
        params: row.params as Record<string, unknown>,
        input: row.input,
        submittedBy: row.submitted_by as SubmittedBy,
        total: row.total,
        done: row.done,
        attempts: row.attempts,
        leaseToken: token,
      }));
    });
  }

  /**
   * Records progress and renews the lease, in the caller's transaction when the progress commits
   * with the work it counts (an import's rows). False when the job no longer holds this lease
   * (another instance took it over after the lease ran out): its work must stop.
   */
  async progress(tx: Tables, job: ClaimedJob, done: number, leaseUntil: Date, total?: number): Promise<boolean> {
    const result = await tx
      .forWholeAccount(job.accountId)
      .updateTable('jobs')
      .set({ done, lease_expires_at: leaseUntil, ...(total !== undefined && { total }) })
      .where('id', '=', job.id)
      .where('lease_token', '=', job.leaseToken)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends the job (while it still holds its lease); the input goes, the result stays until `expiresAt`. */
  async finish(
    tx: Tables,
    job: ClaimedJob,
    end: { status: 'done' | 'failed'; result: Record<string, unknown> | null; error: string | null; now: Date; expiresAt: Date },
  ): Promise<boolean> {
    const result = await tx
      .forWholeAccount(job.accountId)
      .updateTable('jobs')
      .set({
        status: end.status,
        result: end.result === null ? null : JSON.stringify(end.result),
        error: end.error?.slice(0, 500) ?? null,
        input: null,
        finished_at: end.now,
        expires_at: end.expiresAt,
        lease_token: null,
        lease_expires_at: null,
      })
      .where('id', '=', job.id)
      .where('lease_token', '=', job.leaseToken)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Gives a job back: its lease ends at `until` and another claim takes it then. `uncounted`: the
   * attempt was not the job's fault (a shutdown) and does not count towards its attempts.
   */
  async release(job: ClaimedJob, until: Date, uncounted: boolean): Promise<void> {
    await this.database.write
      .forWholeAccount(job.accountId)
      .updateTable('jobs')
      .set((eb) => ({ lease_expires_at: until, ...(uncounted && { attempts: eb('attempts', '-', 1) }) }))
      .where('id', '=', job.id)
      .where('lease_token', '=', job.leaseToken)
      .execute();
  }

  /** Deletes finished jobs past their expiry (their chunks and rows cascade), a batch at a time; returns how many went. */
  async forgetExpired(now: Date, batch: number): Promise<number> {
    const db = this.database.write.anyAccount;
    const result = await db
      .deleteFrom('jobs')
      .where('id', 'in', db.selectFrom('jobs').select('id').where('expires_at', '<=', now).limit(batch))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** What the queue holds over every account (/metrics): ready jobs, the oldest one's age, running jobs. */
  async depth(now: Date): Promise<QueueDepth> {
    return this.database.workerTransaction(async (tx) => {
      const ready = leaseIsFree('lease_expires_at', now);
      const result = await sql<{ ready: number; oldest: number | null; running: number }>`
        SELECT count(*) FILTER (WHERE ${ready})::int AS ready,
          extract(epoch FROM ${now}::timestamptz - min(created_at) FILTER (WHERE ${ready}))::float8 AS oldest,
          count(*) FILTER (WHERE status = 'running' AND lease_expires_at > ${now}::timestamptz)::int AS running
        FROM jobs WHERE status IN ('queued', 'running')`.execute(tx.anyAccount);
      const row = result.rows[0];
      return { ready: Number(row.ready), oldestReadySeconds: Math.max(0, Number(row.oldest ?? 0)), running: Number(row.running) };
    });
  }

  /** How many of the account's jobs of `kind` are unfinished (queued or running). */
  async unfinishedCount(accountId: AccountId, kind: JobKind): Promise<number> {
    const row = await this.database.read
      .forWholeAccount(accountId)
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('kind', '=', kind)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
