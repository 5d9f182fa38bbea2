import { Injectable } from '@nestjs/common';
import { type Selectable, sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { DomainId } from '../common/ids/resource-ids';
import type { Domain } from '../generated/kysely/database';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import type { MovedCode } from './domain-events';
import type { DomainRecord, DomainStatus } from './domain.record';
import type { ServedDomain } from './served-domain';

const toRecord = (row: Selectable<Domain>): DomainRecord => ({
  id: row.id,
  accountId: row.account_id,
  hostname: row.hostname,
  status: row.status as DomainStatus,
  verificationToken: row.verification_token,
  rootRedirectUrl: row.root_redirect_url,
  notFoundUrl: row.not_found_url,
  verifiedAt: row.verified_at,
  checkedAt: row.checked_at,
  checkFailingSince: row.check_failing_since,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** How a re-check came out: the record found (ok), a definite miss (no or other TXT values). */
export type CheckOutcome = { ok: true } | { ok: false };

/**
 * All queries of domains. An account's reads and writes go through its tables; the lookups by
 * hostname across accounts (who holds a hostname, which domain a request's Host is, the daily
 * re-check of every served domain) use `anyAccount`: a hostname is public, and the re-check is
 * system work. The codes on a domain are counted and moved here too, in the domain's own
 * transaction, because they depend on it.
 */
@Injectable()
export class DomainsRepository {
  constructor(private readonly database: Database) {}

  async insert(tx: Tables, accountId: AccountId, hostname: string, token: string): Promise<DomainRecord> {
    const now = new Date();
    const row = await tx
      .forAccount(accountId)
      .insertInto('domains', [{ id: randomUUID() as DomainId, hostname, verification_token: token, created_at: now, updated_at: now }])
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async list(accountId: AccountId): Promise<DomainRecord[]> {
    const rows = await this.database.read.forAccount(accountId).selectFrom('domains').selectAll().orderBy('hostname').orderBy('id').execute();
    return rows.map(toRecord);
  }

  async find(accountId: AccountId, id: DomainId): Promise<DomainRecord | null> {
    const row = await this.database.read.forAccount(accountId).selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** The domain a request's Host names, as the redirect host serves it: its served holder (verified or failing), else a pending one, else null. */
  async findServed(hostname: string): Promise<ServedDomain | null> {
    const row = await this.database.read.anyAccount
      .selectFrom('domains')
      .select(['id', 'account_id', 'hostname', 'status', 'root_redirect_url', 'not_found_url'])
      .where('hostname', '=', hostname)
      .orderBy(sql`status = 'pending'`)
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    const served = row.status !== 'pending';
    return {
      id: row.id,
      hostname: row.hostname,
      accountId: row.account_id,
      served,
      rootRedirectUrl: served ? row.root_redirect_url : null,
      notFoundUrl: served ? row.not_found_url : null,
    };
  }

  /** The account holding `hostname` verified (or failing), if any. */
  async servedHolder(hostname: string): Promise<AccountId | null> {
    const row = await this.database.read.anyAccount
      .selectFrom('domains')
      .select('account_id')
      .where('hostname', '=', hostname)
      .where('status', '<>', 'pending')
      .executeTakeFirst();
    return row?.account_id ?? null;
  }

  /** The account's verified domains among ids, with their hostnames. */
  async verifiedAmong(accountId: AccountId, ids: DomainId[]): Promise<Map<DomainId, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.read
      .forAccount(accountId)
      .selectFrom('domains')
      .select(['id', 'hostname'])
      .where('id', 'in', ids)
      .where('status', '=', 'verified')
      .execute();
    return new Map(rows.map((row) => [row.id, row.hostname]));
  }

  async lockForUpdate(tx: Tables, accountId: AccountId, id: DomainId): Promise<DomainRecord | null> {
    const row = await tx.forAccount(accountId).selectFrom('domains').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async setUrls(tx: Tables, accountId: AccountId, id: DomainId, urls: { rootRedirectUrl?: string | null; notFoundUrl?: string | null }) {
    const row = await tx
      .forAccount(accountId)
      .updateTable('domains')
      .set({
        updated_at: new Date(),
        ...(urls.rootRedirectUrl !== undefined && { root_redirect_url: urls.rootRedirectUrl }),
        ...(urls.notFoundUrl !== undefined && { not_found_url: urls.notFoundUrl }),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Marks the domain verified now (a second holder of the hostname is refused by the partial unique index). */
  async markVerified(tx: Tables, accountId: AccountId, id: DomainId, now: Date): Promise<DomainRecord> {
    const row = await tx
      .forAccount(accountId)
      .updateTable('domains')
      .set({
        status: 'verified',
        // First proven now, or proven before (a failing domain coming back keeps its date).
        verified_at: sql<Date>`CASE WHEN status = 'pending' THEN ${now} ELSE COALESCE(verified_at, ${now}) END`,
        checked_at: now,
        check_failing_since: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  /** How many of the account's codes are on the domain (every folder: the domain is the account's). */
  async codeCount(tx: Tables, accountId: AccountId, id: DomainId): Promise<number> {
    const row = await tx
      .forWholeAccount(accountId)
      .selectFrom('qr_codes')
      .select((eb) => eb.fn.countAll<bigint>().as('n'))
      .where('domain_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Moves the domain's codes to the default redirect host, bumping their render version (their
   * printed URL changes). With `newShortCode`, each gets a new short code from it: for when one of
   * them is already taken on the default host (the caller retries so after a unique violation).
   */
  async moveCodesToDefaultHost(tx: Tables, accountId: AccountId, id: DomainId, newShortCode?: () => string): Promise<MovedCode[]> {
    const codes = tx.forWholeAccount(accountId);
    if (!newShortCode) {
      const rows = await codes
        .updateTable('qr_codes')
        .set((eb) => ({ domain_id: null, render_version: eb('render_version', '+', 1), updated_at: new Date() }))
        .where('domain_id', '=', id)
        .returning(['id', 'short_code'])
        .execute();
      return rows.map((row) => ({ id: row.id, shortCode: row.short_code ?? '' }));
    }
    const ids = await codes.selectFrom('qr_codes').select('id').where('domain_id', '=', id).execute();
    const moved: MovedCode[] = [];
    for (const { id: codeId } of ids) {
      const shortCode = newShortCode();
      await codes
        .updateTable('qr_codes')
        .set((eb) => ({ domain_id: null, short_code: shortCode, render_version: eb('render_version', '+', 1), updated_at: new Date() }))
        .where('id', '=', codeId)
        .execute();
      moved.push({ id: codeId, shortCode });
    }
    return moved;
  }

  async delete(tx: Tables, accountId: AccountId, id: DomainId): Promise<void> {
    await tx.forAccount(accountId).deleteFrom('domains').where('id', '=', id).execute();
  }

  /**
   * Claims up to `limit` served domains of any account whose last check is older than `before`,
   * marking them checked now: another instance's sweep skips them (SKIP LOCKED, then the new
   * checked_at). System work over every account.
   */
  async claimDue(before: Date, now: Date, limit: number): Promise<DomainRecord[]> {
    return this.database.transaction(async (tx) => {
      const due = await tx.anyAccount
        .selectFrom('domains')
        .select('id')
        .where('status', '<>', 'pending')
        .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<', before)]))
        .orderBy('checked_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute();
      if (due.length === 0) return [];
      const rows = await tx.anyAccount
        .updateTable('domains')
        .set({ checked_at: now })
        .where(
          'id',
          'in',
          due.map((row) => row.id),
        )
        .returningAll()
        .execute();
      return rows.map(toRecord);
    });
  }

  /** A failed re-check: the first failure is kept; returns the domain as it is now. */
  async recordFailedCheck(tx: Tables, domain: DomainRecord, now: Date, status: DomainStatus): Promise<DomainRecord> {
    const row = await tx
      .forAccount(domain.accountId)
      .updateTable('domains')
      .set((eb) => ({ status, check_failing_since: eb.fn.coalesce('check_failing_since', eb.val(now)), updated_at: now }))
      .where('id', '=', domain.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }
}
