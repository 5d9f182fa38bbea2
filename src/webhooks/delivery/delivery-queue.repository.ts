import { Injectable } from '@nestjs/common';
import { type Kysely, sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../../common/ids/account-id';
import type { DeliveryId, WebhookEventId, WebhookId } from '../../common/ids/resource-ids';
import type { DB } from '../../generated/kysely/database';
import { Database } from '../../infra/database/database.service';
import type { Tables } from '../../infra/database/tables';
import { LeasedQueueRepository, type QueueSettings } from '../../infra/jobs/leased-queue.repository';
import type { WebhookEventType } from '../webhook-event-types';
import { DELIVERY_RETRY } from './retry-schedule';

/** An endpoint all of whose attempts failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;
/** Events (and their deliveries and attempts) are kept this long; a replay reaches back as far. */
export const EVENT_RETENTION_MS = 30 * 86_400_000;

/**
 * The deliveries' queue (docs/webhooks.md#delivery): at most 10 attempts in flight per endpoint
 * over all instances, 200 per instance, a lease of six times an attempt's timeout, the retry
 * schedule of retry-schedule.ts, and events (with their deliveries and attempts) kept 30 days.
 */
export const DELIVERY_QUEUE: QueueSettings = {
  name: 'webhook-deliveries',
  table: 'webhook_deliveries',
  key: 'id',
  unfinished: "q.status = 'pending'",
  order: 'next_attempt_at',
  countsAttempts: false,
  perGroup: { column: 'endpoint_id', table: 'webhook_endpoints', limit: 10 },
  batch: 200,
  leaseMs: 60_000,
  retry: DELIVERY_RETRY,
  sweep: { table: 'webhook_events', column: 'occurred_at', keepForMs: EVENT_RETENTION_MS },
};

/** A claimed delivery with all it takes to attempt it. */
export interface ClaimedDelivery {
  id: DeliveryId;
  accountId: AccountId;
  endpointId: WebhookId;
  eventId: WebhookEventId;
  eventType: WebhookEventType;
  /** Attempts since its schedule started: this attempt is number scheduleAttempts + 1. */
  scheduleAttempts: number;
  body: string;
  url: string;
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
}

interface ClaimedRow {
  id: DeliveryId;
  account_id: AccountId;
  endpoint_id: WebhookId;
  event_id: WebhookEventId;
  event_type: WebhookEventType;
  schedule_attempts: number;
}

export interface ClaimOptions {
  /** Deliveries leased at most (this instance's free slots). */
  limit: number;
  /** A body this instance still holds (RecentEventBodies); the others are read from the outbox. */
  knownBody: (eventId: WebhookEventId) => string | undefined;
}

/** One attempt's result, as the worker records it. */
export interface AttemptRecord {
  /** The lease its claim took: the delivery's state changes only while it still holds it. */
  leaseToken: string;
  deliveryId: DeliveryId;
  accountId: AccountId;
  endpointId: WebhookId;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  snippet: string | null;
  outcome: 'succeeded' | 'retrying' | 'failed';
  nextAttemptAt: Date | null;
  scheduleAttempts: number;
}

/**
 * The delivery worker's queries, across accounts (it serves every account's endpoints). The claim
 * is the runner's one claim (leased-queue.repository.ts), with the endpoint as the group: each
 * endpoint gets at most its free slots. A lease outlives an attempt's timeout many times over; one
 * left by an instance that died expires and the delivery is claimed again.
 */
@Injectable()
export class DeliveryQueueRepository {
  readonly leased: LeasedQueueRepository;

  constructor(private readonly database: Database) {
    this.leased = new LeasedQueueRepository(database, DELIVERY_QUEUE);
  }

  /**
   * One step of the worker, in one transaction: records the attempts that finished (which frees
   * their endpoints' slots), then, unless `claim` is off, claims due deliveries into the free slots.
   * Returns the endpoints disabled now and what was claimed.
   */
  async cycle(finished: AttemptRecord[], now: Date, claim: ClaimOptions | null, disableAfterMs: number) {
    return this.database.workerTransaction(async (tx) => {
      const disabled = finished.length > 0 ? await this.record(tx.anyAccount, finished, now, disableAfterMs) : [];
      const claimed = claim ? await this.claim(tx, now, claim) : { token: null, deliveries: [] };
      return { disabled, ...claimed };
    });
  }

  /** Leases due deliveries into their endpoints' free slots (the runner's one claim), with their endpoints' addresses, secrets and bodies. */
  private async claim(tx: Tables, now: Date, { limit, knownBody }: ClaimOptions): Promise<{ token: string; deliveries: ClaimedDelivery[] }> {
    const { token, rows } = await this.leased.claim<ClaimedRow>(
      {
        now,
        limit,
        // A disabled endpoint still gets its test events (POST /webhooks/{id}/test checks it before enabling it).
        where: sql`q.event_type = 'webhook.test' OR EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = q.endpoint_id AND e.enabled)`,
        returning: ['id', 'account_id', 'endpoint_id', 'event_id', 'event_type', 'schedule_attempts'],
      },
      tx,
    );
    if (rows.length === 0) return { token, deliveries: [] };
    const db = tx.anyAccount;
    const endpoints = new Map(
      (
        await db
          .selectFrom('webhook_endpoints')
          .select(['id', 'url', 'secret_ciphertext', 'previous_secret_ciphertext', 'previous_secret_expires_at'])
          .where('id', 'in', [...new Set(rows.map((row) => row.endpoint_id))])
          .execute()
      ).map((endpoint) => [endpoint.id, endpoint]),
    );
    const bodies = await this.bodies(db, rows, knownBody);
    // A delivery's event cannot go while the delivery exists (it cascades); should a body still be missing, the delivery waits out its lease.
    const deliveries = rows
      .filter((row) => bodies.has(row.event_id) && endpoints.has(row.endpoint_id))
      .map((row) => {
        const endpoint = endpoints.get(row.endpoint_id)!;
        return {
          id: row.id,
          accountId: row.account_id,
          endpointId: row.endpoint_id,
          eventId: row.event_id,
          eventType: row.event_type,
          scheduleAttempts: row.schedule_attempts,
          body: bodies.get(row.event_id)!,
          url: endpoint.url,
          secretCiphertext: endpoint.secret_ciphertext,
          previousSecretCiphertext: endpoint.previous_secret_ciphertext,
          previousSecretExpiresAt: endpoint.previous_secret_expires_at,
        };
      });
    return { token, deliveries };
  }

  /** The claimed deliveries' bodies: those this instance still holds, the others read from the outbox. */
  private async bodies(db: Kysely<DB>, rows: readonly ClaimedRow[], knownBody: ClaimOptions['knownBody']): Promise<Map<string, string>> {
    const bodies = new Map<string, string>();
    for (const row of rows) {
      const body = knownBody(row.event_id);
      if (body !== undefined) bodies.set(row.event_id, body);
    }
    const unknown = [...new Set(rows.map((row) => row.event_id).filter((id) => !bodies.has(id)))];
    if (unknown.length > 0) {
      // The leased deliveries hold their events (a delete of an event cascades to them and waits for the lease's lock).
      for (const event of await db.selectFrom('webhook_events').select(['id', 'body']).where('id', 'in', unknown).execute())
        bodies.set(event.id, event.body);
    }
    return bodies;
  }

  /**
   * Records attempts: the attempts, each delivery's new state, and each endpoint's failure streak.
   * An endpoint whose streak reached `disableAfterMs` is disabled; returns the ids of endpoints
   * disabled now.
   */
  private async record(db: Kysely<DB>, attempts: AttemptRecord[], now: Date, disableAfterMs: number): Promise<WebhookId[]> {
    // Endpoints first, in id order, as the claim and an endpoint's deletion (which then cascades to
    // its deliveries) take them: locking deliveries first and the endpoint after deadlocked with a
    // deletion (the fuzz suite found it).
    const endpointIds = [...new Set(attempts.map((a) => a.endpointId))].sort();
    await db.selectFrom('webhook_endpoints').select('id').where('id', 'in', endpointIds).orderBy('id').forNoKeyUpdate().execute();
    await this.writeAttempts(db, attempts);
    return this.updateStreaks(db, attempts, now, disableAfterMs);
  }

  /** Inserts the attempts and moves each delivery on, while it still holds this claim's lease. */
  private async writeAttempts(db: Kysely<DB>, attempts: AttemptRecord[]): Promise<void> {
    const values = sql.join(
      attempts.map(
        (a) =>
          sql`(${randomUUID()}::uuid, ${a.accountId}::uuid, ${a.deliveryId}::uuid, ${a.attemptedAt}::timestamptz, ${a.statusCode}::int,
            ${a.error}::varchar, ${a.durationMs}::int, ${a.snippet}::varchar, ${a.outcome}::varchar, ${a.nextAttemptAt}::timestamptz,
            ${a.scheduleAttempts}::int, ${a.leaseToken}::uuid)`,
      ),
    );
    const recorded = sql`(VALUES ${values}) AS v(id, account_id, delivery_id, attempted_at, status_code, error, duration_ms, snippet, outcome,
      next_attempt_at, schedule_attempts, lease_token)`;
    // Deliveries deleted meanwhile (their endpoint or event was) have nothing to record; should one go between this and the
    // insert, its foreign key fails the transaction, which is tried again and then finds it gone.
    await sql`INSERT INTO webhook_attempts (id, account_id, delivery_id, attempted_at, status_code, error, duration_ms, response_snippet, outcome)
      SELECT v.id, v.account_id, v.delivery_id, v.attempted_at, v.status_code, v.error, v.duration_ms, v.snippet, v.outcome
      FROM ${recorded} JOIN webhook_deliveries d ON d.id = v.delivery_id`.execute(db);
    // Only while the delivery still holds this claim's lease: a redelivery asked for meanwhile wins.
    await sql`UPDATE webhook_deliveries d SET
        status = CASE WHEN v.outcome = 'retrying' THEN 'pending' ELSE v.outcome END,
        schedule_attempts = v.schedule_attempts, attempt_count = d.attempt_count + 1, next_attempt_at = v.next_attempt_at,
        lease_token = NULL, lease_expires_at = NULL, last_attempt_at = v.attempted_at, last_status_code = v.status_code, last_error = v.error
      FROM ${recorded} WHERE d.id = v.delivery_id AND d.lease_token = v.lease_token`.execute(db);
  }

  /**
   * Each endpoint's failure streak: a success ends it, a failure starts it (if none is running);
   * then the endpoints failing for `disableAfterMs` are disabled, their ids returned.
   */
  private async updateStreaks(db: Kysely<DB>, attempts: AttemptRecord[], now: Date, disableAfterMs: number): Promise<WebhookId[]> {
    const succeeded = [...new Set(attempts.filter((a) => a.outcome === 'succeeded').map((a) => a.endpointId))];
    const failing = [...new Set(attempts.filter((a) => a.outcome !== 'succeeded').map((a) => a.endpointId))].filter((id) => !succeeded.includes(id));
    if (succeeded.length > 0) {
      await db
        .updateTable('webhook_endpoints')
        .set({ failing_since: null })
        .where('id', 'in', succeeded)
        .where('failing_since', 'is not', null)
        .execute();
    }
    if (failing.length === 0) return [];
    const firstFailure = new Date(Math.min(...attempts.map((a) => a.attemptedAt.getTime())));
    await db
      .updateTable('webhook_endpoints')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', eb.val(firstFailure)) }))
      .where('id', 'in', failing)
      .execute();
    return this.disableFailing(db, failing, attempts, new Date(now.getTime() - disableAfterMs), now);
  }

  /** Disables the endpoints among `failing` that have failed since `cutoff` or before, saying why; returns their ids. */
  private async disableFailing(db: Kysely<DB>, failing: WebhookId[], attempts: AttemptRecord[], cutoff: Date, now: Date): Promise<WebhookId[]> {
    const lastError = (id: WebhookId) => {
      const last = attempts.filter((a) => a.endpointId === id).at(-1)!;
      return last.statusCode !== null ? `HTTP ${last.statusCode}` : (last.error ?? 'no answer');
    };
    const disabled = await db
      .updateTable('webhook_endpoints')
      .set({ enabled: false, updated_at: now })
      .where('id', 'in', failing)
      .where('enabled', '=', true)
      .where('failing_since', '<=', cutoff)
      .returning(['id', 'failing_since'])
      .execute();
    for (const row of disabled) {
      const reason =
        `Disabled at ${now.toISOString()}: every delivery failed since ${row.failing_since!.toISOString()} (last: ${lastError(row.id)}). ` +
        'Fix the endpoint, then set enabled to true.';
      await db
        .updateTable('webhook_endpoints')
        .set({ disabled_reason: reason.slice(0, 500) })
        .where('id', '=', row.id)
        .execute();
    }
    return disabled.map((row) => row.id);
  }
}
