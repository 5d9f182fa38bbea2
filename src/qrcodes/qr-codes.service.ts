import { Inject, Injectable, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { DomainId, QrCodeId } from '../common/ids/resource-ids';
import { ConcurrencyLimit, SlotWaitTimeout } from '../common/concurrency/concurrency-limit';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { FieldConflictException } from '../common/validation/field-conflict.exception';
import { DomainsService, NOT_YOUR_DOMAIN } from '../domains/domains.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { actorKeyPrefix, OUTSIDE_KEY_FOLDERS, restrictedFolders } from '../infra/http/request-context';
import { FoldersService, NOT_YOUR_FOLDER } from '../folders/folders.service';
import { POOL_SIZES } from '../infra/database/database-connection';
import { Database } from '../infra/database/database.service';
import { isForeignKeyViolation, isUniqueViolation } from '../infra/database/refused-data';
import type { Tables } from '../infra/database/tables';
import type { CreateQrCodeDto } from './dto/create-qr-code.dto';
import type { ListQrCodesQuery, ListSort } from './dto/list-qr-codes.query';
import type { UpdateQrCodeDto } from './dto/update-qr-code.dto';
import { type QrCodeField, QrCodeEvents } from './qr-code-events';
import { checkNewQrCode, checkQrCodeUpdate, type RuleContext, type UpdateOptions } from './qr-code-rules';
import type { NewQrCode, QrCodeRecord } from './qr-code.record';
import { type QrLinkOrigins, toCreated, toListItem } from './qr-code.representation';
import { type ListFilter, QrCodesRepository, shortCodeKey } from './qr-codes.repository';
import { redirectHostAliases } from './content';
import { SCAN_COUNTS, type ScanCounts } from '../scans/scan-counts';
import { SearchResultCache } from './search-result-cache';
import { withFreshShortCodes } from './short-code';
import { hashLinkPassword } from '../smart-links/settings/link-password';

/**
 * Search queries (a page or a total) computed at once per instance: a fifth of the read pool.
 * Each holds a connection and database CPU for as long as its term takes (seconds for a term
 * matching half a million codes under load), so unbounded, a burst of them would leave other
 * requests no connection. A search waits for a slot at most as long as a read may take.
 */
const SEARCH_SLOTS = Math.max(1, Math.floor(POOL_SIZES.reads / 5));

/** `conflict`: the item is valid but its chosen short code is taken (409 for a single create). */
export type ItemCheck = { ok: true; code: NewQrCode } | { ok: false; errors: FieldError[]; conflict?: boolean };

const shortCodeTaken = (shortCode: string): FieldError => ({ field: 'short_code', message: `short_code "${shortCode}" is taken on this host` });

export const codeNotFound = () => new NotFoundException('QR code not found');

@Injectable()
export class QrCodesService {
  readonly origins: QrLinkOrigins;
  private readonly ownHosts: ReturnType<typeof redirectHostAliases>;
  private readonly searchSlots: ConcurrencyLimit;

  constructor(
    private readonly codes: QrCodesRepository,
    private readonly folders: FoldersService,
    private readonly domains: DomainsService,
    private readonly database: Database,
    private readonly events: QrCodeEvents,
    private readonly searchResults: SearchResultCache,
    @Inject(SCAN_COUNTS) private readonly scans: ScanCounts,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.origins = { baseUrl: config.baseUrl, redirectUrl: config.redirectUrl };
    this.ownHosts = redirectHostAliases([config.redirectUrl, config.baseUrl]);
    this.searchSlots = new ConcurrencyLimit(SEARCH_SLOTS, config.database.readTimeoutMs);
  }

  private context(): RuleContext {
    return { ownHosts: this.ownHosts, now: new Date() };
  }

  /** Checks create items (already shape-validated DTOs): the rules, then folder ownership in one query per folder. */
  async checkNew(accountId: AccountId, items: CreateQrCodeDto[]): Promise<ItemCheck[]> {
    const context = this.context();
    const checks = items.map((item) => checkNewQrCode(item, context));
    const folderIds = [...new Set(checks.flatMap((check) => (check.ok && check.value.folderId ? [check.value.folderId] : [])))];
    const owned = await this.folders.ownedAmong(accountId, folderIds);
    const keyFolders = restrictedFolders(accountId);
    const placed = await this.linkPlacements(
      accountId,
      checks.flatMap((check) => (check.ok ? [check.value] : [])),
    );
    return checks.map((check) => {
      if (!check.ok) return check;
      if (keyFolders && !check.value.folderId) return { ok: false, errors: [{ field: 'folder_id', message: OUTSIDE_KEY_FOLDERS }] };
      if (check.value.folderId && !owned.has(check.value.folderId)) return { ok: false, errors: [NOT_YOUR_FOLDER] };
      return placed(check.value);
    });
  }

  /**
   * The check of where new codes' links go: a domain must be a verified one of the account's, a
   * chosen short code free on its host (taken by any code, or by an earlier item of the same batch).
   */
  private async linkPlacements(accountId: AccountId, codes: NewQrCode[]): Promise<(code: NewQrCode) => ItemCheck> {
    const domainIds = [...new Set(codes.flatMap((code) => (code.domainId ? [code.domainId] : [])))];
    const verified = await this.domains.verifiedAmong(accountId, domainIds);
    const chosen = codes.flatMap((code) => (code.chosenShortCode ? [{ domainId: code.domainId ?? null, shortCode: code.chosenShortCode }] : []));
    const taken = await this.codes.takenShortCodes(chosen);
    const claimed = new Set<string>();
    return (code) => {
      if (code.domainId && !verified.has(code.domainId)) return { ok: false, errors: [NOT_YOUR_DOMAIN] };
      if (code.chosenShortCode) {
        const key = shortCodeKey(code.domainId ?? null, code.chosenShortCode);
        if (taken.has(key) || claimed.has(key)) return { ok: false, errors: [shortCodeTaken(code.chosenShortCode)], conflict: true };
        claimed.add(key);
      }
      return { ok: true, code };
    };
  }

  /**
   * Inserts valid codes in one transaction, giving dynamic ones fresh short codes (`bulk`: for one
   * bulk request). `alongside` runs in the same transaction, with the codes inserted: what must
   * commit with them (an import's row results and progress).
   */
  async insert(
    accountId: AccountId,
    codes: NewQrCode[],
    bulk = false,
    alongside?: (tx: Tables, inserted: QrCodeRecord[]) => Promise<void>,
  ): Promise<QrCodeRecord[]> {
    // Hashed before the transaction: argon2 takes ~20 ms, which no row lock should wait for.
    const hashed = await Promise.all(
      codes.map(async ({ password, ...code }) => ({ ...code, passwordHash: password === null ? null : await hashLinkPassword(password) })),
    );
    // Kept on the row for the code's history (version 1), so a create writes nothing more than its row.
    const createdKeyPrefix = actorKeyPrefix();
    const chosen = codes.flatMap((code) => (code.chosenShortCode ? [code.chosenShortCode] : []));
    const created = await this.takenAsConflict(chosen, () =>
      withFreshShortCodes((next) =>
        this.inTransaction(async (tx) => {
          const inserted = await this.codes.insert(
            tx,
            accountId,
            hashed.map((code) => ({ ...code, shortCode: code.isDynamic ? (code.chosenShortCode ?? next()) : null, createdKeyPrefix })),
          );
          await this.events.recordInTransaction(tx, { kind: 'created', accountId, codes: inserted, bulk });
          if (alongside) await alongside(tx, inserted);
          return inserted;
        }),
      ),
    );
    await this.events.publishCommitted({ kind: 'created', accountId, codes: created, bulk });
    return created;
  }

  async create(accountId: AccountId, dto: CreateQrCodeDto) {
    const [check] = await this.checkNew(accountId, [dto]);
    if (!check.ok) throw check.conflict ? new FieldConflictException(check.errors) : new ValidationFailedException(check.errors);
    const [created] = await this.insert(accountId, [check.code]);
    return toCreated(created, this.origins);
  }

  async list(accountId: AccountId, query: ListQrCodesQuery) {
    const filter = listFilter(query);
    // A search's ids and total come first, outside the scan counts' read: only the rows and their
    // pending scans must be read as one step.
    const searched = filter.search ? await this.searchIdsAndTotal(accountId, filter, query.sort, query.page, query.limit) : undefined;
    const {
      result: { items, total },
      pending,
    } = await this.scans.readWithPending(
      async () =>
        searched
          ? { items: await this.codes.findPage(accountId, searched.ids, query.sort), total: searched.total }
          : this.pageAndTotal(accountId, filter, query.sort, query.page, query.limit),
      (page) => page.items.filter((code) => code.isDynamic).map((code) => code.id),
    );
    return {
      data: items.map((code) => toListItem(code, this.origins, pending.get(code.id))),
      pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
    };
  }

  private async pageAndTotal(accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number) {
    const [items, total] = await Promise.all([this.codes.page(accountId, filter, sort, page, limit), this.codes.count(accountId, filter)]);
    return { items, total };
  }

  private async searchIdsAndTotal(accountId: AccountId, filter: ListFilter, sort: ListSort, page: number, limit: number) {
    const results = await this.searchResults.forAccount(accountId);
    // The status filter depends on the time (expiry): a status search is never kept.
    const remember = <T>(parts: unknown[], compute: () => Promise<T>) => (filter.status ? compute() : results.remember(parts, compute));
    const [ids, total] = await Promise.all([
      remember(['page', filter, sort, page, limit], () => this.searchSlot(() => this.codes.pageIds(accountId, filter, sort, page, limit))),
      remember(['total', filter], () => this.searchSlot(() => this.codes.count(accountId, filter))),
    ]);
    return { ids, total };
  }

  private async searchSlot<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await this.searchSlots.run(task);
    } catch (error) {
      if (error instanceof SlotWaitTimeout) throw new ServiceUnavailableException('Too many searches are running; try again shortly');
      throw error;
    }
  }

  /**
   * Every code matching the list's filters, in its sort, a batch at a time (walked by key: constant
   * memory and cost per batch however many codes match). For exports.
   */
  async *eachMatching(accountId: AccountId, query: ListFilterQuery, batch: number): AsyncGenerator<QrCodeRecord[]> {
    const filter = listFilter(query);
    let after: QrCodeRecord | null = null;
    for (;;) {
      const codes = await this.codes.batchAfter(accountId, filter, query.sort, after, batch);
      if (codes.length > 0) yield codes;
      if (codes.length < batch) return;
      after = codes[codes.length - 1];
    }
  }

  /** The account's codes among ids, in the order given (missing and other accounts' ids left out). */
  findAmong(accountId: AccountId, ids: readonly QrCodeId[]): Promise<QrCodeRecord[]> {
    return this.codes.findAmong(accountId, ids);
  }

  /** Which of these ids name codes of the account. */
  ownedAmong(accountId: AccountId, ids: QrCodeId[]): Promise<Set<QrCodeId>> {
    return this.codes.ownedAmong(accountId, ids);
  }

  /** The code of the account, or 404 (also when another account owns it). */
  async findOwned(accountId: AccountId, id: QrCodeId): Promise<QrCodeRecord> {
    const code = await this.codes.find(accountId, id);
    if (!code) throw codeNotFound();
    return code;
  }

  async get(accountId: AccountId, id: QrCodeId) {
    const { result: code, pending } = await this.scans.readWithPending(
      () => this.findOwned(accountId, id),
      (found) => (found.isDynamic ? [found.id] : []),
    );
    return toListItem(code, this.origins, pending.get(id));
  }

  /** Applies the update and answers the code as it is then (the get representation). */
  async update(accountId: AccountId, id: QrCodeId, dto: UpdateQrCodeDto, options: UpdateOptions = { mergeContent: false }) {
    const current = await this.findOwned(accountId, id);
    const check = checkQrCodeUpdate(current, dto, this.context(), options);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const { upgradeToDynamic, chosenShortCode, password, ...planned } = check.value;
    const changes = {
      ...planned,
      ...(password !== undefined && { passwordHash: password === null ? null : await hashLinkPassword(password) }),
      ...(options.restoredPasswordHash !== undefined && { passwordHash: options.restoredPasswordHash }),
    };
    if (changes.folderId === null && restrictedFolders(accountId)) {
      throw new ValidationFailedException([{ field: 'folder_id', message: OUTSIDE_KEY_FOLDERS }]);
    }
    if (changes.folderId && !(await this.folders.ownedAmong(accountId, [changes.folderId])).has(changes.folderId)) {
      throw new ValidationFailedException([NOT_YOUR_FOLDER]);
    }
    const placedShortCode = await this.checkUpdatePlacement(accountId, current, changes.domainId, chosenShortCode);
    const changed = changedFields(dto);
    if (options.restoredPasswordHash !== undefined) changed.push('password');
    const updated = await this.takenAsConflict(placedShortCode ? [placedShortCode] : [], () =>
      withFreshShortCodes((next) =>
        this.inTransaction(async (tx) => {
          // Locked until the commit: concurrent updates of one code see and record each other's result.
          const before = await this.codes.lockForUpdate(tx, accountId, id);
          if (!before) throw codeNotFound();
          const after = await this.codes.update(tx, accountId, id, {
            ...changes,
            upgradeWithShortCode: upgradeToDynamic ? (chosenShortCode ?? next()) : undefined,
          });
          if (!after) throw codeNotFound();
          const event = {
            kind: 'updated',
            accountId,
            codeId: id,
            shortCode: after.shortCode,
            changed,
            renderVersionChanged: changes.bumpRenderVersion,
            before,
            code: after,
            restoring: options.restoring,
          } as const;
          await this.events.recordInTransaction(tx, event);
          return event;
        }),
      ),
    );
    await this.events.publishCommitted(updated);
    // Read again with the pending scans, as get does; a delete since the commit leaves the updated row.
    const { result: code, pending } = await this.scans.readWithPending(
      async () => (await this.codes.find(accountId, id)) ?? updated.code,
      (found) => (found.isDynamic ? [found.id] : []),
    );
    return toListItem(code, this.origins, pending.get(id));
  }

  /**
   * An update's new domain must be a verified one of the account's, and the short code the link
   * will have there (chosen now, or the code's own) free on it: 400 or 409 otherwise. Returns that
   * short code when the update places one (null: it places none).
   */
  private async checkUpdatePlacement(
    accountId: AccountId,
    current: QrCodeRecord,
    domainId: DomainId | null | undefined,
    chosenShortCode: string | null,
  ): Promise<string | null> {
    if (domainId && !(await this.domains.verifiedAmong(accountId, [domainId])).has(domainId)) {
      throw new ValidationFailedException([NOT_YOUR_DOMAIN]);
    }
    const moves = domainId !== undefined && domainId !== current.domainId;
    const shortCode = chosenShortCode ?? (moves ? current.shortCode : null);
    if (!shortCode) return null;
    const host = domainId === undefined ? current.domainId : domainId;
    if ((await this.codes.takenShortCodes([{ domainId: host, shortCode }])).size > 0) throw new FieldConflictException([shortCodeTaken(shortCode)]);
    return shortCode;
  }

  /** A unique violation of a write that placed chosen short codes is one of them taken meanwhile: 409, not a retry. */
  private async takenAsConflict<T>(placed: string[], write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (placed.length > 0 && isUniqueViolation(error)) throw new FieldConflictException(placed.map(shortCodeTaken));
      throw error;
    }
  }

  async delete(accountId: AccountId, id: QrCodeId): Promise<void> {
    const deleted = await this.inTransaction(async (tx) => {
      const gone = await this.codes.delete(tx, accountId, id);
      if (!gone) throw codeNotFound();
      const event = { kind: 'deleted', accountId, codeId: id, shortCode: gone.shortCode, code: gone } as const;
      await this.events.recordInTransaction(tx, event);
      return event;
    });
    await this.events.publishCommitted(deleted);
  }

  /**
   * A write transaction. A folder reference the database refuses (the folder was deleted, or is
   * another account's, since the check) is the client's mistake, not a failure.
   */
  private async inTransaction<T>(work: (tx: Tables) => Promise<T>): Promise<T> {
    try {
      return await this.database.transaction(work);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new ValidationFailedException([NOT_YOUR_FOLDER]);
      throw error;
    }
  }
}

/** The list's filters and sort (the list query without its page). */
export type ListFilterQuery = Pick<ListQrCodesQuery, 'type' | 'is_dynamic' | 'folder_id' | 'search' | 'status' | 'sort'>;

function listFilter(query: Omit<ListFilterQuery, 'sort'>): ListFilter {
  return {
    type: query.type,
    isDynamic: query.is_dynamic === undefined ? undefined : query.is_dynamic === 'true',
    folderId: query.folder_id,
    search: query.search?.trim() || undefined,
    status: query.status && { is: query.status, now: new Date() },
  };
}

/** The request fields of an update, as event field names. */
function changedFields(dto: UpdateQrCodeDto): QrCodeField[] {
  const fields: QrCodeField[] = [
    'name',
    'content',
    'style',
    'folder_id',
    'tags',
    'is_dynamic',
    'status',
    'expires_at',
    'rules',
    'max_scans',
    'fallback_url',
    'password',
    'utm',
    'scan_retention_days',
    'preview',
    'domain_id',
    'short_code',
  ];
  return fields.filter((field) => dto[field] !== undefined);
}
