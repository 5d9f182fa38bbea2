import { Injectable } from '@nestjs/common';
import type { AccountId } from '../../common/ids/account-id';
import { Database } from '../database/database.service';

/** A key as stored: its request's fingerprint and, once completed, the response. */
export interface StoredKey {
  fingerprint: string;
  state: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
}

/**
 * Idempotency keys, per account. A claim is one statement: it inserts the key, or takes over a row
 * that has expired (or an in-flight claim of the same request whose instance died), so two
 * requests with one key can never both proceed.
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly database: Database) {}

  /** Claims the key for this request; false when a live row holds it (see find). */
  async claim(accountId: AccountId, key: string, fingerprint: string, now: Date, lockedUntil: Date, expiresAt: Date): Promise<boolean> {
    const row = await this.database.write
      .forAccount(accountId)
      .insertInto('idempotency_keys', [{ key, fingerprint, state: 'in_flight', locked_until: lockedUntil, expires_at: expiresAt }])
      .onConflict((conflict) =>
        conflict
          .columns(['account_id', 'key'])
          .doUpdateSet({
            fingerprint,
            state: 'in_flight',
            response_status: null,
            response_body: null,
            locked_until: lockedUntil,
            expires_at: expiresAt,
          })
          .where((eb) =>
            eb.or([
              eb('idempotency_keys.expires_at', '<=', now),
              eb.and([
                eb('idempotency_keys.state', '=', 'in_flight'),
                eb('idempotency_keys.locked_until', '<=', now),
                eb('idempotency_keys.fingerprint', '=', fingerprint),
              ]),
            ]),
          ),
      )
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The live (unexpired) row of the key, if any. */
  async find(accountId: AccountId, key: string, now: Date): Promise<StoredKey | undefined> {
    const row = await this.database.write
      .forAccount(accountId)
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'state', 'response_status', 'response_body'])
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return (
      row && {
        fingerprint: row.fingerprint,
        state: row.state as StoredKey['state'],
        responseStatus: row.response_status,
        responseBody: row.response_body,
      }
    );
  }

  async complete(accountId: AccountId, key: string, fingerprint: string, status: number, body: string): Promise<void> {
    await this.database.write
      .forAccount(accountId)
      .updateTable('idempotency_keys')
      .set({ state: 'completed', response_status: status, response_body: body })
      .where('key', '=', key)
      .where('fingerprint', '=', fingerprint)
      .where('state', '=', 'in_flight')
      .execute();
  }

  /** Forgets an in-flight claim whose request failed: nothing was created, the key may be used again. */
  async release(accountId: AccountId, key: string, fingerprint: string): Promise<void> {
    await this.database.write
      .forAccount(accountId)
      .deleteFrom('idempotency_keys')
      .where('key', '=', key)
      .where('fingerprint', '=', fingerprint)
      .where('state', '=', 'in_flight')
      .execute();
  }

  /** Deletes expired keys of every account (system work: a sweep has no account). */
  async forgetExpired(now: Date): Promise<void> {
    await this.database.write.anyAccount.deleteFrom('idempotency_keys').where('expires_at', '<=', now).execute();
  }
}
