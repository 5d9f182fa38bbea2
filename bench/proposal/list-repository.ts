/**
 * Proposal, not in src/: search totals cached in Redis (bench/list.ts --cache-totals installs it on
 * one app's repository instance; the real repository is not changed).
 *
 * `list` below is QrCodesRepository.list as committed in 56298cc (deferred-join page, totals from
 * qr_code_counts without search) except for the search total: it is kept in Redis under the
 * account's write version (a random token), which every insert, update and delete of the account's
 * codes replaces after it commits. A total is reused only while no write happened since it was
 * counted, so it stays exact, read-your-writes included (the version changes before the write's
 * response). A folder deletion (folder_id set to NULL) would have to change it too; the bench does
 * not exercise that path. Without Redis, or when Redis fails, totals are counted as now.
 */
import { createHash, randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { AccountId } from '../../src/common/auth/account-id';
import { Prisma } from '../../src/generated/prisma/client';
import type { PrismaService } from '../../src/infra/database/prisma.service';
import type { ListSort } from '../../src/qrcodes/dto/list-qr-codes.query';
import type { QrCodeRecord } from '../../src/qrcodes/qr-code.record';
import { likePattern, type ListFilter, type QrCodesRepository } from '../../src/qrcodes/qr-codes.repository';

const COLUMNS = Prisma.sql`id, name, type, content, content_string, style, folder_id, is_dynamic, short_code, status, expires_at, scans, render_version, created_at, updated_at`;

const ORDER: Record<ListSort, Prisma.Sql> = {
  newest: Prisma.sql`created_at DESC, id DESC`,
  oldest: Prisma.sql`created_at ASC, id ASC`,
  'name-asc': Prisma.sql`name ASC, id ASC`,
  'name-desc': Prisma.sql`name DESC, id DESC`,
};

type Row = Record<string, unknown> & { scans: bigint };

// Same mapping as the repository's toRecord (not exported there).
const toRecord = (row: Row): QrCodeRecord =>
  ({
    id: row.id, name: row.name, type: row.type, content: row.content, contentString: row.content_string, style: row.style,
    folderId: row.folder_id, isDynamic: row.is_dynamic, shortCode: row.short_code, status: row.status, expiresAt: row.expires_at,
    scans: BigInt(row.scans), renderVersion: row.render_version, createdAt: row.created_at, updatedAt: row.updated_at,
  }) as QrCodeRecord;

function where(accountId: AccountId, filter: ListFilter): Prisma.Sql {
  const conditions = [Prisma.sql`account_id = ${accountId}::uuid`];
  if (filter.type) conditions.push(Prisma.sql`type = ${filter.type}`);
  if (filter.isDynamic !== undefined) conditions.push(Prisma.sql`is_dynamic = ${filter.isDynamic}`);
  if (filter.folderId) conditions.push(Prisma.sql`folder_id = ${filter.folderId}::uuid`);
  if (filter.search) conditions.push(Prisma.sql`search_text LIKE lower(${likePattern(filter.search)})`);
  return Prisma.join(conditions, ' AND ');
}

function countersWhere(accountId: AccountId, filter: ListFilter): Prisma.Sql {
  const conditions = [Prisma.sql`account_id = ${accountId}::uuid`];
  if (filter.type) conditions.push(Prisma.sql`type = ${filter.type}`);
  if (filter.isDynamic !== undefined) conditions.push(Prisma.sql`is_dynamic = ${filter.isDynamic}`);
  if (filter.folderId) conditions.push(Prisma.sql`folder_key = ${filter.folderId}::uuid`);
  return Prisma.join(conditions, ' AND ');
}

const TOTAL_TTL_SECONDS = 300;
const versionKey = (accountId: string) => `codes-version:${accountId}`;

/** The search total from the cache when no write happened since it was counted, else counted and stored. */
async function searchTotal(prisma: PrismaService, redis: Redis | null, accountId: AccountId, filter: ListFilter, matching: Prisma.Sql): Promise<number> {
  const count = async () => Number((await prisma.$queryRaw<Array<{ total: bigint }>>`SELECT count(*) AS total FROM qr_codes WHERE ${matching}`)[0].total);
  if (!redis || redis.status !== 'ready') return count();
  const filterHash = createHash('sha1').update(JSON.stringify([filter.type, filter.isDynamic, filter.folderId, filter.search])).digest('base64url');
  const totalKey = `list-total:${accountId}:${filterHash}`;
  let version: string | null;
  try {
    const [current, stored] = await redis.mget(versionKey(accountId), totalKey);
    if (current && stored?.startsWith(`${current}:`)) return Number(stored.slice(current.length + 1));
    version = current;
    if (!version) {
      await redis.set(versionKey(accountId), randomUUID(), 'NX');
      version = await redis.get(versionKey(accountId));
    }
  } catch {
    return count();
  }
  const total = await count();
  if (version) await redis.set(totalKey, `${version}:${total}`, 'EX', TOTAL_TTL_SECONDS).catch(() => undefined);
  return total;
}

export async function proposedList(
  prisma: PrismaService, accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number, redis: Redis | null = null,
): Promise<{ items: QrCodeRecord[]; total: number }> {
  const matching = where(accountId, filter);
  const [rows, counted] = await Promise.all([
    prisma.$queryRaw<Row[]>`
      SELECT ${COLUMNS} FROM qr_codes
      WHERE account_id = ${accountId}::uuid
        AND id IN (SELECT id FROM qr_codes WHERE ${matching} ORDER BY ${ORDER[sort]} LIMIT ${limit} OFFSET ${(page - 1) * limit})
      ORDER BY ${ORDER[sort]}`,
    filter.search
      ? searchTotal(prisma, redis, accountId, filter, matching)
      : prisma.$queryRaw<Array<{ total: bigint }>>`SELECT COALESCE(sum(n), 0)::bigint AS total FROM qr_code_counts WHERE ${countersWhere(accountId, filter)}`
          .then((result) => Number(result[0].total)),
  ]);
  return { items: rows.map(toRecord), total: counted };
}

/**
 * Replaces list on one repository instance (one app) with the proposal, and makes insert, update and
 * delete change the account's write version (bench only).
 */
export function installCachedSearchTotals(repository: QrCodesRepository, redis: Redis | null): void {
  const prisma = (repository as unknown as { prisma: PrismaService }).prisma;
  repository.list = (accountId, filter, sort, page, limit) => proposedList(prisma, accountId, filter, sort, page, limit, redis);
  if (!redis) return;
  const bump = async <T>(accountId: AccountId, result: T) => {
    // A random version, not a counter: a lost or evicted version key can never make old totals valid again.
    // When even the DEL fails (Redis unreachable), totals counted before the write live at most TOTAL_TTL_SECONDS.
    await redis.set(versionKey(accountId), randomUUID()).catch(() => redis.del(versionKey(accountId)).catch(() => undefined));
    return result;
  };
  const { insert, update, delete: remove } = repository;
  repository.insert = async (accountId, codes) => bump(accountId, await insert.call(repository, accountId, codes));
  repository.update = async (accountId, id, changes) => bump(accountId, await update.call(repository, accountId, id, changes));
  repository.delete = async (accountId, id) => bump(accountId, await remove.call(repository, accountId, id));
}
