import { Injectable } from '@nestjs/common';
import { type Kysely, sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../../common/ids/account-id';
import type { DeliveryId, WebhookEventId, WebhookId } from '../../common/ids/resource-ids';
import type { DB } from '../../generated/kysely/database';
import { Database } from '../../infra/database/database.service';
import type { QueueDepth } from '../../infra/jobs/job-runner.service';
import { leaseIsFree, newLeaseToken } from '../../infra/jobs/lease';
import type { WebhookEventType } from '../webhook-event-types';

/** Endpoints served per claim (each gets up to its free concurrency slots). */
const ENDPOINTS_PER_CLAIM = 100;
const SWEEP_BATCH = 5000;

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

export interface ClaimOptions {
  leaseUntil: Date;
  /** Due deliveries leased per endpoint at most, less its attempts in flight. */
  perEndpoint: number;
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
 * The delivery worker's queries, across accounts (it serves every account's endpoints). A claim
 * locks the endpoints it serves (FOR NO KEY UPDATE SKIP LOCKED: another instance claiming at the
 * same moment serves other endpoints), counts their attempts in flight, and leases each at most
 * its free slots of due deliveries (FOR UPDATE SKIP LOCKED). A lease outlives an attempt's
 * timeout many times over; one left by an instance that died expires and the delivery is claimed
 * again.
 */
@Injectable()
export class DeliveryQueueRepository {
  constructor(private readonly database: Database) {}

  /**
   * One step of the worker, in one transaction: records the attempts that finished (which frees
   * their endpoints' slots), then, unless `claim` is off, claims due deliveries into the free slots.
   * Returns the endpoints disabled now and what was claimed.
   */
  async cycle(finished: AttemptRecord[], now: Date, claim: ClaimOptions | null, disableAfterMs: number) {
    const token = newLeaseToken();
    return this.database.workerTransaction(async (tx) => {
      const disabled = finished.length > 0 ? await this.record(tx.anyAccount, finished, now, disableAfterMs) : [];
      const deliveries = claim ? await this.claim(tx.anyAccount, token, now, claim) : [];
      return { disabled, token, deliveries };
    });
  }

  private async claim(db: Kysely<DB>, token: string, now: Date, { leaseUntil, perEndpoint, knownBody }: ClaimOptions): Promise<ClaimedDelivery[]> {
    const endpoints = await db
      .selectFrom('webhook_endpoints as e')
      .select(['e.id', 'e.enabled'])
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('webhook_deliveries as d')
            .select(sql`1`.as('one'))
            .whereRef('d.endpoint_id', '=', 'e.id')
            .where('d.status', '=', 'pending')
            .where('d.next_attempt_at', '<=', now)
            .where(leaseIsFree('d.lease_expires_at', now))
            .where((eb) => eb.or([eb('e.enabled', '=', true), eb('d.event_type', '=', 'webhook.test')])),
        ),
      )
      .limit(ENDPOINTS_PER_CLAIM)
      .forNoKeyUpdate('e')
      .skipLocked()
      .execute();
    if (endpoints.length === 0) return [];
    // A statement of its own, after the locks: it sees the leases of claims committed meanwhile.
    const busy = await db
      .selectFrom('webhook_deliveries')
      .select(['endpoint_id', (eb) => eb.fn.countAll<bigint>().as('n')])
      .where(
        'endpoint_id',
        'in',
        endpoints.map((endpoint) => endpoint.id),
      )
      .where('lease_token', 'is not', null)
      .where('lease_expires_at', '>', now)
      .groupBy('endpoint_id')
      .execute();
    const inFlight = new Map(busy.map((row) => [row.endpoint_id, Number(row.n)]));
    const claimed = [];
    for (const endpoint of endpoints) {
      const slots = perEndpoint - (inFlight.get(endpoint.id) ?? 0);
      if (slots <= 0) continue;
      let due = db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpoint.id)
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where(leaseIsFree('lease_expires_at', now));
      if (!endpoint.enabled) due = due.where('event_type', '=', 'webhook.test');
      const rows = await db
        .updateTable('webhook_deliveries as d')
        .from('webhook_endpoints as e')
        .set({ lease_token: token, lease_expires_at: leaseUntil })
        .whereRef('e.id', '=', 'd.endpoint_id')
        .where('d.id', 'in', due.orderBy('next_attempt_at').limit(slots).forUpdate().skipLocked())
        .returning([
          'd.id',
          'd.account_id',
          'd.endpoint_id',
          'd.event_id',
          'd.event_type',
          'd.schedule_attempts',
          'd.next_attempt_at',
          'e.url',
          'e.secret_ciphertext',
          'e.previous_secret_ciphertext',
          'e.previous_secret_expires_at',
        ])
        .execute();
      claimed.push(...rows);
    }
    const bodies = new Map<string, string>();
    for (const row of claimed) {
      const body = knownBody(row.event_id);
      if (body !== undefined) bodies.set(row.event_id, body);
    }
    const unknown = [...new Set(claimed.map((row) => row.event_id).filter((id) => !bodies.has(id)))];
    if (unknown.length > 0) {
      // The leased deliveries hold their events (a delete of an event cascades to them and waits for the lease's lock).
      for (const event of await db.selectFrom('webhook_events').select(['id', 'body']).where('id', 'in', unknown).execute())
        bodies.set(event.id, event.body);
    }
    // A delivery's event cannot go while the delivery exists (it cascades); should a body still be missing, the delivery waits out its lease.
    return claimed
      .filter((row) => bodies.has(row.event_id))
      .map((row) => ({
        id: row.id,
        accountId: row.account_id,
        endpointId: row.endpoint_id,
        eventId: row.event_id,
        eventType: row.event_type as WebhookEventType,
        scheduleAttempts: row.schedule_attempts,
        body: bodies.get(row.event_id)!,
        url: row.url,
        secretCiphertext: row.secret_ciphertext,
        previousSecretCiphertext: row.previous_secret_ciphertext,
        previousSecretExpiresAt: row.previous_secret_expires_at,
      }));
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
    const cutoff = new Date(now.getTime() - disableAfterMs);
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

  /** What the queue holds over every endpoint (/metrics): deliveries due, the oldest one's wait, attempts in flight. */
  async depth(now: Date): Promise<QueueDepth> {
    return this.database.workerTransaction(async (tx) => {
      const result = await sql<{ ready: number; oldest: number | null; running: number }>`
        SELECT count(*) FILTER (WHERE next_attempt_at <= ${now}::timestamptz AND ${leaseIsFree('lease_expires_at', now)})::int AS ready,
          extract(epoch FROM ${now}::timestamptz - min(next_attempt_at)
            FILTER (WHERE next_attempt_at <= ${now}::timestamptz AND ${leaseIsFree('lease_expires_at', now)}))::float8 AS oldest,
          count(*) FILTER (WHERE lease_expires_at > ${now}::timestamptz)::int AS running
        FROM webhook_deliveries WHERE status = 'pending'`.execute(tx.anyAccount);
      const row = result.rows[0];
      return { ready: Number(row.ready), oldestReadySeconds: Math.max(0, Number(row.oldest ?? 0)), running: Number(row.running) };
    });
  }

  /** Deletes events (and so their deliveries and attempts) older than `cutoff`, a batch at a time; returns how many went. */
  async forgetEventsBefore(cutoff: Date): Promise<number> {
    const db = this.database.write.anyAccount;
    const result = await db
      .deleteFrom('webhook_events')
      .where('id', 'in', db.selectFrom('webhook_events').select('id').where('occurred_at', '<', cutoff).limit(SWEEP_BATCH))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
