import { Injectable } from '@nestjs/common';
import { type Expression, type ExpressionBuilder, type Selectable, type SelectQueryBuilder, sql, type SqlBool } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { DomainId, FolderId, QrCodeId, TagId } from '../common/ids/resource-ids';
import type { DB, QrCode } from '../generated/kysely/database';
import { Database } from '../infra/database/database.service';
import type { AccountTables, Tables } from '../infra/database/tables';
import type { QrType } from './content';
import type { ListSort } from './dto/list-qr-codes.query';
import type { QrStatus, SettableStatus } from './qr-code-status';
import type { QrCodeRecord, StoredNewQrCode } from './qr-code.record';
import type { LinkRule, Utm } from '../smart-links/settings/link-settings';
import { tagKey } from '../tags/tag-names';
import { TagsService } from '../tags/tags.service';
import type { LinkPreviewSettings } from '../smart-links/settings/link-preview';

export interface ListFilter {
  type?: QrType;
  isDynamic?: boolean;
  folderId?: FolderId;
  search?: string;
  /** Stored status; `expired` is derived from expires_at at `now`. */
  status?: { is: QrStatus; now: Date };
}

export interface QrCodeChanges {
  name?: string;
  content?: Record<string, unknown>;
  contentString?: string;
  style?: Record<string, unknown>;
  folderId?: FolderId | null;
  /** Replaces the code's tags (names, resolved to the account's tags, the missing ones made). */
  tags?: string[];
  status?: SettableStatus;
  expiresAt?: Date | null;
  rules?: LinkRule[];
  maxScans?: number | null;
  fallbackUrl?: string | null;
  passwordHash?: string | null;
  utm?: Utm | null;
  scanRetentionDays?: number | null;
  preview?: LinkPreviewSettings | null;
  /** Moves the code to a domain (null: the default redirect host). */
  domainId?: DomainId | null;
  /** Content, style or dynamic state changed: cached images of the old version are stale. */
  bumpRenderVersion: boolean;
  /** Upgrade to dynamic with this short code, unless the code already has one (then it is kept). */
  upgradeWithShortCode?: string;
}

type QrEb = ExpressionBuilder<DB, 'qr_codes'>;

/** The list's sorts; the id breaks ties, so pages never overlap or skip. */
function sorted<O>(query: SelectQueryBuilder<DB, 'qr_codes', O>, sort: ListSort): SelectQueryBuilder<DB, 'qr_codes', O> {
  switch (sort) {
    case 'newest':
      return query.orderBy('created_at', 'desc').orderBy('id', 'desc');
    case 'oldest':
      return query.orderBy('created_at', 'asc').orderBy('id', 'asc');
    case 'name-asc':
      return query.orderBy('name', 'asc').orderBy('id', 'asc');
    case 'name-desc':
      return query.orderBy('name', 'desc').orderBy('id', 'desc');
  }
}

/** The hostname of a code's domain, beside its columns (null without a domain). */
const domainHostname = (eb: QrEb) =>
  eb.selectFrom('domains').select('domains.hostname').whereRef('domains.id', '=', 'qr_codes.domain_id').as('domain_hostname');

/**
 * The names of a code's tags, in the order of its tag_ids (a tag id is only ever one of its
 * account's: written by resolveTags; a merge or delete rewrites the arrays holding it).
 */
const tagNames = () =>
  sql<string[]>`ARRAY(SELECT t.name FROM unnest(qr_codes.tag_ids) WITH ORDINALITY AS u(id, ord)
    JOIN tags t ON t.id = u.id AND t.account_id = qr_codes.account_id ORDER BY u.ord)`.as('tag_names');

/** What a code's record reads beside its own columns: its domain's hostname, its tags' names. */
const derived = (eb: QrEb) => [domainHostname(eb), tagNames()];

const toRecord = (row: Selectable<QrCode> & { domain_hostname: string | null; tag_names: string[] }): QrCodeRecord => ({
  id: row.id,
  name: row.name,
  type: row.type as QrType,
  content: row.content as Record<string, unknown>,
  contentString: row.content_string,
  style: row.style as Record<string, unknown>,
  folderId: row.folder_id,
  isDynamic: row.is_dynamic,
  shortCode: row.short_code,
  domainId: row.domain_id,
  domainHostname: row.domain_hostname,
  status: row.status as SettableStatus,
  expiresAt: row.expires_at,
  scans: BigInt(row.scans),
  renderVersion: row.render_version,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  rules: (row.link_rules as LinkRule[] | null) ?? [],
  maxScans: row.max_scans,
  fallbackUrl: row.fallback_url,
  passwordHash: row.password_hash,
  utm: row.utm as Utm | null,
  scanRetentionDays: row.scan_retention_days,
  preview: row.preview as LinkPreviewSettings | null,
  createdKeyPrefix: row.created_key_prefix,
  tags: row.tag_names,
});

/** JSON columns that are null when empty. */
const jsonOrNull = (value: unknown[] | object | null) =>
  value === null || (Array.isArray(value) && value.length === 0) ? null : JSON.stringify(value);
/** A short code on its host, as one key. */
export const shortCodeKey = (domainId: DomainId | null, shortCode: string): string => `${domainId ?? ''}/${shortCode}`;

/** `%`, `_` and `\` in a search term match themselves. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * All queries of QR codes. Every method takes the owning account and reaches qr_codes through the
 * account's tables (AccountTables), so a code of another account behaves exactly like a missing
 * one. Writes run in the caller's transaction (`tx`), so the service can add what must commit with
 * them.
 */
@Injectable()
export class QrCodesRepository {
  constructor(
    private readonly database: Database,
    private readonly tags: TagsService,
  ) {}

  /** The ids of tag names (by name key), the account's tags missing made, in the write's transaction (TagsService.idsFor). */
  private async tagIds(tx: Tables, accountId: AccountId, names: readonly string[]): Promise<Map<string, TagId>> {
    const ids = await this.tags.idsFor(tx, accountId, names);
    return new Map(names.map((name, index) => [tagKey(name), ids[index]]));
  }

  /** Inserts codes in one statement (all or none); short codes and the creating key's prefix are given by the caller. */
  async insert(tx: Tables, accountId: AccountId, codes: Array<StoredNewQrCode & { createdKeyPrefix?: string | null }>): Promise<QrCodeRecord[]> {
    const now = Date.now();
    const tagIds = await this.tagIds(
      tx,
      accountId,
      codes.flatMap((code) => code.tags),
    );
    const rows = await tx
      .forAccount(accountId)
      .insertInto(
        'qr_codes',
        codes.map((code, index) => ({
          id: randomUUID() as QrCodeId,
          name: code.name,
          type: code.type,
          content: JSON.stringify(code.content),
          content_string: code.contentString,
          style: JSON.stringify(code.style),
          folder_id: code.folderId,
          tag_ids: code.tags.map((name) => tagIds.get(tagKey(name))!),
          is_dynamic: code.isDynamic,
          short_code: code.shortCode,
          domain_id: code.domainId ?? null,
          expires_at: code.expiresAt,
          link_rules: jsonOrNull(code.rules),
          max_scans: code.maxScans,
          fallback_url: code.fallbackUrl,
          password_hash: code.passwordHash,
          utm: jsonOrNull(code.utm),
          scan_retention_days: code.scanRetentionDays,
          preview: jsonOrNull(code.preview),
          created_key_prefix: code.createdKeyPrefix ?? null,
          // Distinct instants keep a bulk's codes in submission order under the newest/oldest sorts.
          created_at: new Date(now + index),
          updated_at: new Date(now + index),
        })),
      )
      .returningAll()
      .returning(derived)
      .execute();
    return rows.map(toRecord);
  }

  async find(accountId: AccountId, id: QrCodeId): Promise<QrCodeRecord | null> {
    const row = await this.database.read
      .forAccount(accountId)
      .selectFrom('qr_codes')
      .selectAll()
      .select(derived)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /**
   * One page of codes. The page's ids come from the sort index first (a deferred join: rows skipped
   * by OFFSET are never read from the table).
   */
  async page(accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number): Promise<QrCodeRecord[]> {
    const codes = this.database.read.forAccount(accountId);
    const rows = await sorted(
      codes
        .selectFrom('qr_codes')
        .selectAll()
        .select(derived)
        .where('id', 'in', this.pageIdsQuery(codes, filter, sort, page, limit)),
      sort,
    ).execute();
    return rows.map(toRecord);
  }

  /** The ids of one page, in order (for results kept by id: see SearchResultCache). */
  async pageIds(accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number): Promise<QrCodeId[]> {
    const rows = await this.pageIdsQuery(this.database.read.forAccount(accountId), filter, sort, page, limit).execute();
    return rows.map((row) => row.id);
  }

  /** The ids of one page, from the sort index: shared by page() and pageIds(), so their order and paging cannot drift apart. */
  private pageIdsQuery(codes: AccountTables, filter: ListFilter, sort: ListSort, page: number, limit: number) {
    return sorted(
      codes
        .selectFrom('qr_codes')
        .select('id')
        .where((eb) => eb.and(this.conditions(eb, filter))),
      sort,
    )
      .limit(limit)
      .offset((page - 1) * limit);
  }

  /** The account's codes among ids, in sort order (ids of other accounts or deleted codes are left out). */
  async findPage(accountId: AccountId, ids: QrCodeId[], sort: ListSort): Promise<QrCodeRecord[]> {
    if (ids.length === 0) return [];
    const rows = await sorted(
      this.database.read.forAccount(accountId).selectFrom('qr_codes').selectAll().select(derived).where('id', 'in', ids),
      sort,
    ).execute();
    return rows.map(toRecord);
  }

  /**
   * How many codes match. Without `search` or `status` a sum over the trigger-kept qr_code_counts
   * rows, not a count of up to millions of codes; otherwise the matches are counted (through the
   * trigram index on search_text for a search).
   */
  async count(accountId: AccountId, filter: ListFilter): Promise<number> {
    const codes = this.database.read.forAccount(accountId);
    if (filter.search || filter.status) {
      const row = await codes
        .selectFrom('qr_codes')
        .select((eb) => eb.fn.countAll<bigint>().as('total'))
        .where((eb) => eb.and(this.conditions(eb, filter)))
        .executeTakeFirstOrThrow();
      return Number(row.total);
    }
    let counters = codes.selectFrom('qr_code_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<bigint>('n'), sql<bigint>`0`).as('total'));
    if (filter.type) counters = counters.where('type', '=', filter.type);
    if (filter.isDynamic !== undefined) counters = counters.where('is_dynamic', '=', filter.isDynamic);
    if (filter.folderId) counters = counters.where('folder_key', '=', filter.folderId);
    const row = await counters.executeTakeFirstOrThrow();
    return Number(row.total);
  }

  private conditions(eb: QrEb, filter: ListFilter): Expression<SqlBool>[] {
    const conditions: Expression<SqlBool>[] = [];
    if (filter.type) conditions.push(eb('type', '=', filter.type));
    if (filter.isDynamic !== undefined) conditions.push(eb('is_dynamic', '=', filter.isDynamic));
    if (filter.folderId) conditions.push(eb('folder_id', '=', filter.folderId));
    // search_text is lower(name || newline || content_string): one trigram index, no per-row lowering.
    if (filter.search) conditions.push(sql<SqlBool>`search_text LIKE lower(${likePattern(filter.search)})`);
    if (filter.status) conditions.push(this.statusCondition(eb, filter.status));
    return conditions;
  }

  /** The status as the API shows it: expired once expires_at has passed, whatever is stored. */
  private statusCondition(eb: QrEb, { is, now }: NonNullable<ListFilter['status']>): Expression<SqlBool> {
    const expired = eb.and([eb('expires_at', 'is not', null), eb('expires_at', '<=', now)]);
    if (is === 'expired') return expired;
    return eb.and([eb('status', '=', is), eb.not(expired)]);
  }

  /**
   * Applies changes in the caller's transaction. The upgrade to dynamic keeps an existing short
   * code (COALESCE is evaluated on the locked, latest row), so two racing upgrades create one link.
   * Returns the code after the change, or undefined when the account has no such code.
   */
  /** The code as it is now, locked until the transaction ends (an update records what it changed from). */
  async lockForUpdate(tx: Tables, accountId: AccountId, id: QrCodeId): Promise<QrCodeRecord | undefined> {
    const row = await tx.forAccount(accountId).selectFrom('qr_codes').selectAll().select(derived).where('id', '=', id).forUpdate().executeTakeFirst();
    return row && toRecord(row);
  }

  async update(tx: Tables, accountId: AccountId, id: QrCodeId, changes: QrCodeChanges): Promise<QrCodeRecord | undefined> {
    const tagIds = changes.tags && (await this.tagIds(tx, accountId, changes.tags));
    const row = await tx
      .forAccount(accountId)
      .updateTable('qr_codes')
      .set((eb) => ({
        // The app's clock, as at insert: a code's created_at and updated_at come from one clock.
        updated_at: new Date(),
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.content !== undefined && { content: JSON.stringify(changes.content) }),
        ...(changes.contentString !== undefined && { content_string: changes.contentString }),
        ...(changes.style !== undefined && { style: JSON.stringify(changes.style) }),
        ...(changes.folderId !== undefined && { folder_id: changes.folderId }),
        ...(changes.tags && tagIds && { tag_ids: changes.tags.map((name) => tagIds.get(tagKey(name))!) }),
        ...(changes.status !== undefined && { status: changes.status }),
        ...(changes.expiresAt !== undefined && { expires_at: changes.expiresAt }),
        ...(changes.rules !== undefined && { link_rules: jsonOrNull(changes.rules) }),
        ...(changes.maxScans !== undefined && { max_scans: changes.maxScans }),
        ...(changes.fallbackUrl !== undefined && { fallback_url: changes.fallbackUrl }),
        ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
        ...(changes.utm !== undefined && { utm: jsonOrNull(changes.utm) }),
        ...(changes.scanRetentionDays !== undefined && { scan_retention_days: changes.scanRetentionDays }),
        ...(changes.preview !== undefined && { preview: jsonOrNull(changes.preview) }),
        ...(changes.domainId !== undefined && { domain_id: changes.domainId }),
        ...(changes.bumpRenderVersion && { render_version: eb('render_version', '+', 1) }),
        ...(changes.upgradeWithShortCode && { is_dynamic: true, short_code: eb.fn.coalesce('short_code', eb.val(changes.upgradeWithShortCode)) }),
      }))
      .where('id', '=', id)
      .returningAll()
      .returning(derived)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Deletes the code (a trigger deletes its scan events); returns it as it was, or undefined. */
  async delete(tx: Tables, accountId: AccountId, id: QrCodeId): Promise<QrCodeRecord | undefined> {
    const row = await tx.forAccount(accountId).deleteFrom('qr_codes').where('id', '=', id).returningAll().returning(derived).executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * Which of these short codes are taken on their host (a domain, or the default redirect host:
   * null), by any account: a short code is public, and a host's codes are one name space.
   */
  async takenShortCodes(wanted: ReadonlyArray<{ domainId: DomainId | null; shortCode: string }>): Promise<Set<string>> {
    if (wanted.length === 0) return new Set();
    const rows = await this.database.read.anyAccount
      .selectFrom('qr_codes')
      .select(['domain_id', 'short_code'])
      .where((eb) =>
        eb.or(
          wanted.map(({ domainId, shortCode }) =>
            eb.and([eb('short_code', '=', shortCode), domainId ? eb('domain_id', '=', domainId) : eb('domain_id', 'is', null)]),
          ),
        ),
      )
      .execute();
    return new Set(rows.map((row) => shortCodeKey(row.domain_id, row.short_code ?? '')));
  }

  /**
   * The codes matching `filter` that come after `after` in `sort` order, `limit` of them: the
   * list walked in batches by key (the sort's columns and the id), never by offset, so that a walk
   * over a million codes costs the same per batch at its end as at its start.
   */
  async batchAfter(accountId: AccountId, filter: ListFilter, sort: ListSort, after: QrCodeRecord | null, limit: number): Promise<QrCodeRecord[]> {
    let query = this.database.read
      .forAccount(accountId)
      .selectFrom('qr_codes')
      .selectAll()
      .select(derived)
      .where((eb) => eb.and(this.conditions(eb, filter)));
    if (after) {
      const [column, value] = sort === 'newest' || sort === 'oldest' ? (['created_at', after.createdAt] as const) : (['name', after.name] as const);
      const direction = sort === 'newest' || sort === 'name-desc' ? '<' : '>';
      // The plain bound on the sort column lets the (account_id, <column>) index start the scan there; the tuple breaks ties by id.
      query = query
        .where(column, direction === '<' ? '<=' : '>=', value)
        .where((eb) => eb(eb.refTuple(column, 'id'), direction, eb.tuple(value, after.id)));
    }
    const rows = await sorted(query, sort).limit(limit).execute();
    return rows.map(toRecord);
  }

  /** The account's codes among ids, in the order of `ids` (ids of other accounts or deleted codes are left out). */
  async findAmong(accountId: AccountId, ids: readonly QrCodeId[]): Promise<QrCodeRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.database.read.forAccount(accountId).selectFrom('qr_codes').selectAll().select(derived).where('id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [row.id, toRecord(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The account's codes among ids (ids of other accounts or deleted codes are left out). */
  async ownedAmong(accountId: AccountId, ids: QrCodeId[]): Promise<Set<QrCodeId>> {
    if (ids.length === 0) return new Set();
    const rows = await this.database.read.forAccount(accountId).selectFrom('qr_codes').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }
}
