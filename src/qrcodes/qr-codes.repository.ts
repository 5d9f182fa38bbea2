import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AccountId } from '../common/auth/account-id';
import { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../infra/database/prisma.service';
import type { QrType } from './content';
import type { ListSort } from './dto/list-qr-codes.query';
import type { NewQrCode, QrCodeRecord } from './qr-code.record';

export interface ListFilter {
  type?: QrType;
  isDynamic?: boolean;
  folderId?: string;
  search?: string;
}

export interface QrCodeChanges {
  name?: string;
  content?: Record<string, unknown>;
  contentString?: string;
  style?: Record<string, unknown>;
  folderId?: string | null;
  status?: string;
  expiresAt?: Date | null;
  /** Content, style or dynamic state changed: cached images of the old version are stale. */
  bumpRenderVersion: boolean;
  /** Upgrade to dynamic with this short code, unless the code already has one (then it is kept). */
  upgradeWithShortCode?: string;
}

const COLUMNS = Prisma.sql`id, name, type, content, content_string, style, folder_id, is_dynamic, short_code, status, expires_at, scans, render_version, created_at, updated_at`;

const ORDER: Record<ListSort, Prisma.Sql> = {
  newest: Prisma.sql`created_at DESC, id DESC`,
  oldest: Prisma.sql`created_at ASC, id ASC`,
  'name-asc': Prisma.sql`name ASC, id ASC`,
  'name-desc': Prisma.sql`name DESC, id DESC`,
};

type Row = {
  id: string; name: string; type: QrType; content: Record<string, unknown>; content_string: string; style: Record<string, unknown>;
  folder_id: string | null; is_dynamic: boolean; short_code: string | null; status: string; expires_at: Date | null;
  scans: bigint; render_version: number; created_at: Date; updated_at: Date;
};

const toRecord = (row: Row): QrCodeRecord => ({
  id: row.id, name: row.name, type: row.type, content: row.content, contentString: row.content_string, style: row.style,
  folderId: row.folder_id, isDynamic: row.is_dynamic, shortCode: row.short_code, status: row.status, expiresAt: row.expires_at,
  scans: BigInt(row.scans), renderVersion: row.render_version, createdAt: row.created_at, updatedAt: row.updated_at,
});

/** `%`, `_` and `\` in a search term match themselves (design §9a). */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * All SQL of QR codes. Every method takes the owning account and puts it in the WHERE clause, so a
 * code of another account behaves exactly like a missing one.
 */
@Injectable()
export class QrCodesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Inserts codes in one transaction (all or none); short codes are given by the caller. */
  async insert(accountId: AccountId, codes: Array<NewQrCode & { shortCode: string | null }>): Promise<QrCodeRecord[]> {
    const now = new Date();
    const rows = codes.map((code, index) => ({
      id: randomUUID(),
      accountId,
      name: code.name,
      type: code.type,
      content: code.content as Prisma.InputJsonObject,
      contentString: code.contentString,
      style: code.style as Prisma.InputJsonObject,
      folderId: code.folderId,
      isDynamic: code.isDynamic,
      shortCode: code.shortCode,
      expiresAt: code.expiresAt,
      // Distinct instants keep a bulk's codes in submission order under the newest/oldest sorts.
      createdAt: new Date(now.getTime() + index),
      updatedAt: new Date(now.getTime() + index),
    }));
    await this.prisma.qrCode.createMany({ data: rows });
    return rows.map(({ accountId: _owner, ...row }, index) => ({
      ...row,
      content: codes[index].content,
      style: codes[index].style,
      status: 'active',
      scans: 0n,
      renderVersion: 1,
    }));
  }

  async find(accountId: AccountId, id: string): Promise<QrCodeRecord | null> {
    const rows = await this.prisma.$queryRaw<Row[]>`SELECT ${COLUMNS} FROM qr_codes WHERE id = ${id}::uuid AND account_id = ${accountId}::uuid`;
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /**
   * One page of codes. The page's ids come from the sort index first (a deferred join: rows skipped
   * by OFFSET are never read from the table).
   */
  async page(accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number): Promise<QrCodeRecord[]> {
    const rows = await this.prisma.$queryRaw<Row[]>`
      SELECT ${COLUMNS} FROM qr_codes
      WHERE account_id = ${accountId}::uuid
        AND id IN (${this.pageIdsQuery(accountId, filter, sort, page, limit)})
      ORDER BY ${ORDER[sort]}`;
    return rows.map(toRecord);
  }

  /** The ids of one page, in order (for results kept by id: see SearchResultCache). */
  async pageIds(accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>(this.pageIdsQuery(accountId, filter, sort, page, limit));
    return rows.map((row) => row.id);
  }

  /** The ids of one page, from the sort index: shared by page() and pageIds(), so their order and paging cannot drift apart. */
  private pageIdsQuery(accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number): Prisma.Sql {
    return Prisma.sql`SELECT id FROM qr_codes WHERE ${this.where(accountId, filter)} ORDER BY ${ORDER[sort]} LIMIT ${limit} OFFSET ${(page - 1) * limit}`;
  }

  /** The account's codes among ids, in sort order (ids of other accounts or deleted codes are left out). */
  async findPage(accountId: AccountId, ids: string[], sort: ListSort): Promise<QrCodeRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.$queryRaw<Row[]>`
      SELECT ${COLUMNS} FROM qr_codes WHERE account_id = ${accountId}::uuid AND id = ANY(${ids}::uuid[]) ORDER BY ${ORDER[sort]}`;
    return rows.map(toRecord);
  }

  /**
   * How many codes match. Without `search` a sum over the trigger-kept qr_code_counts rows, not a
   * count of up to millions of codes; with `search` the matches are counted through the trigram
   * index on search_text.
   */
  async count(accountId: AccountId, filter: ListFilter): Promise<number> {
    const [{ total }] = filter.search
      ? await this.prisma.$queryRaw<Array<{ total: bigint }>>`SELECT count(*) AS total FROM qr_codes WHERE ${this.where(accountId, filter)}`
      : await this.prisma.$queryRaw<Array<{ total: bigint }>>`
          SELECT COALESCE(sum(n), 0)::bigint AS total FROM qr_code_counts WHERE ${this.countersWhere(accountId, filter)}`;
    return Number(total);
  }

  private where(accountId: AccountId, filter: ListFilter): Prisma.Sql {
    const conditions = [Prisma.sql`account_id = ${accountId}::uuid`];
    if (filter.type) conditions.push(Prisma.sql`type = ${filter.type}`);
    if (filter.isDynamic !== undefined) conditions.push(Prisma.sql`is_dynamic = ${filter.isDynamic}`);
    if (filter.folderId) conditions.push(Prisma.sql`folder_id = ${filter.folderId}::uuid`);
    // search_text is lower(name || newline || content_string): one trigram index, no per-row lowering.
    if (filter.search) conditions.push(Prisma.sql`search_text LIKE lower(${likePattern(filter.search)})`);
    return Prisma.join(conditions, ' AND ');
  }

  private countersWhere(accountId: AccountId, filter: ListFilter): Prisma.Sql {
    const conditions = [Prisma.sql`account_id = ${accountId}::uuid`];
    if (filter.type) conditions.push(Prisma.sql`type = ${filter.type}`);
    if (filter.isDynamic !== undefined) conditions.push(Prisma.sql`is_dynamic = ${filter.isDynamic}`);
    if (filter.folderId) conditions.push(Prisma.sql`folder_key = ${filter.folderId}::uuid`);
    return Prisma.join(conditions, ' AND ');
  }

  /**
   * Applies changes in one transaction. The upgrade to dynamic keeps an existing short code
   * (COALESCE is evaluated on the locked, latest row), so two racing upgrades create one link.
   * Returns the code's short code after the change, or undefined when the account has no such code.
   */
  async update(accountId: AccountId, id: string, changes: QrCodeChanges): Promise<{ shortCode: string | null } | undefined> {
    const sets: Prisma.Sql[] = [Prisma.sql`updated_at = now()`];
    if (changes.name !== undefined) sets.push(Prisma.sql`name = ${changes.name}`);
    if (changes.content !== undefined) sets.push(Prisma.sql`content = ${JSON.stringify(changes.content)}::jsonb`);
    if (changes.contentString !== undefined) sets.push(Prisma.sql`content_string = ${changes.contentString}`);
    if (changes.style !== undefined) sets.push(Prisma.sql`style = ${JSON.stringify(changes.style)}::jsonb`);
    if (changes.folderId !== undefined) sets.push(Prisma.sql`folder_id = ${changes.folderId}::uuid`);
    if (changes.status !== undefined) sets.push(Prisma.sql`status = ${changes.status}`);
    if (changes.expiresAt !== undefined) sets.push(Prisma.sql`expires_at = ${changes.expiresAt}`);
    if (changes.bumpRenderVersion) sets.push(Prisma.sql`render_version = render_version + 1`);
    if (changes.upgradeWithShortCode) {
      sets.push(Prisma.sql`is_dynamic = true`, Prisma.sql`short_code = COALESCE(short_code, ${changes.upgradeWithShortCode})`);
    }
    const rows = await this.prisma.$queryRaw<Array<{ short_code: string | null }>>`
      UPDATE qr_codes SET ${Prisma.join(sets, ', ')} WHERE id = ${id}::uuid AND account_id = ${accountId}::uuid RETURNING short_code`;
    return rows[0] ? { shortCode: rows[0].short_code } : undefined;
  }

  /** Deletes the code (its scan events cascade); returns what callers must clean up, or null. */
  async delete(accountId: AccountId, id: string): Promise<{ shortCode: string | null } | null> {
    const rows = await this.prisma.$queryRaw<Array<{ short_code: string | null }>>`
      DELETE FROM qr_codes WHERE id = ${id}::uuid AND account_id = ${accountId}::uuid RETURNING short_code`;
    return rows[0] ? { shortCode: rows[0].short_code } : null;
  }
}
