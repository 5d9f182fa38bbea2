import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { JobId } from '../../common/ids/resource-ids';
import { Database } from '../database/database.service';
import type { Tables } from '../database/tables';
import type { JobKind, JobStatus, SubmittedBy } from './job';
import { LeasedQueueRepository, type QueueSettings } from './leased-queue.repository';

/**
 * The jobs queue's table and settings (docs/exports-and-imports.md#jobs): at most 2 running jobs per
 * account over all instances, 2 per instance (rendering and parsing are CPU work), a 60 s lease that
 * each progress report renews, tried again after 10 s, 20 s, 40 s, 80 s and failed on the 5th failure.
 */
export const JOBS_QUEUE: QueueSettings = {
  name: 'jobs',
  table: 'jobs',
  key: 'id',
  unfinished: "q.status IN ('queued', 'running')",
  order: 'created_at',
  countsAttempts: true,
  perGroup: { column: 'account_id', table: 'accounts', limit: 2 },
  batch: 2,
  leaseMs: 60_000,
  retry: { firstDelayMs: 10_000, factor: 2, maxDelayMs: 5 * 60_000, jitter: 0.2, maxAttempts: 5 },
  sweep: { table: 'jobs', column: 'expires_at', keepForMs: 0 },
};

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

interface ClaimedRow {
  id: JobId;
  account_id: AccountId;
  kind: JobKind;
  params: Record<string, unknown>;
  input: string | null;
  submitted_by: SubmittedBy;
  total: number;
  done: number;
  attempts: number;
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

/**
 * The job queue's queries. Submitting, reading and finishing are the account's (`forAccount`);
 * the claim is the runner's one claim across accounts (each account within its free slots). A
 * lease outlives a job's progress reports many times over; one left by an instance that died runs
 * out and the job is claimed again.
 */
@Injectable()
export class JobQueueRepository {
  readonly leased: LeasedQueueRepository;

  constructor(private readonly database: Database) {
    this.leased = new LeasedQueueRepository(database, JOBS_QUEUE);
  }

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

  /**
   * Claims up to `limit` unfinished jobs of `kinds` within each account's free slots (the one claim:
   * leased-queue.repository.ts). A job claimed more than the retry policy's attempts (its instance
   * died each time) fails instead of running again.
   */
  async claim(kinds: readonly JobKind[], now: Date, limit: number): Promise<ClaimedJob[]> {
    if (kinds.length === 0) return [];
    const maxAttempts = JOBS_QUEUE.retry.maxAttempts!;
    return this.database.workerTransaction(async (tx) => {
      const { token, rows } = await this.leased.claim<ClaimedRow>(
        {
          now,
          limit,
          where: sql`q.kind = ANY(${kinds}::varchar[])`,
          set: sql`status = 'running', started_at = coalesce(started_at, ${now}::timestamptz)`,
          returning: ['id', 'account_id', 'kind', 'params', 'input', 'submitted_by', 'total', 'done', 'attempts'],
        },
        tx,
      );
      const exhausted = rows.filter((row) => row.attempts > maxAttempts).map((row) => row.id);
      if (exhausted.length > 0) {
        await tx.anyAccount
          .updateTable('jobs')
          .set({ status: 'failed', error: `Stopped after ${maxAttempts} attempts`, finished_at: now, lease_token: null, lease_expires_at: null })
          .where('id', 'in', exhausted)
          .execute();
      }
      return rows
        .filter((row) => row.attempts <= maxAttempts)
        .map((row) => ({
          id: row.id,
          accountId: row.account_id,
          kind: row.kind,
          params: row.params,
          input: row.input,
          submittedBy: row.submitted_by,
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
   * Gives a job back, queued again from `at`. `uncounted`: the attempt was not the job's fault (a
   * shutdown) and does not count towards its attempts.
   */
  async release(job: ClaimedJob, at: Date, uncounted: boolean): Promise<void> {
    await this.leased.release([job.id], job.leaseToken, { at, uncounted, set: sql`status = 'queued'` });
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
