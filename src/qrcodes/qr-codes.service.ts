import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { AccountId } from '../common/auth/account-id';
import { ConcurrencyLimit } from '../common/concurrency/concurrency-limit';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { FoldersService } from '../folders/folders.service';
import { imageCachePrefix, ImageSource, imageSourceKey, imageSources } from '../images/image-cache-key';
import { NearCache, NearCacheRegistry } from '../infra/cache/near-cache';
import { AccountVersions } from '../infra/cache/account-versions';
import { CACHE, Cache } from '../infra/cache/cache';
import { POSTGRES_POOL_SIZE } from '../infra/database/database-connection';
import { isUniqueViolation } from '../infra/database/unique-violation';
import type { CreateQrCodeDto } from './dto/create-qr-code.dto';
import type { ListQrCodesQuery, ListSort } from './dto/list-qr-codes.query';
import type { UpdateQrCodeDto } from './dto/update-qr-code.dto';
import { checkNewQrCode, checkQrCodeUpdate, RuleContext } from './qr-code-rules';
import type { NewQrCode, QrCodeRecord } from './qr-code.record';
import { QrLinkOrigins, toCreated, toListItem } from './qr-code.representation';
import { ListFilter, QrCodesRepository } from './qr-codes.repository';
import { SearchResultCache } from './search-result-cache';
import { LinkResolver } from '../redirect/link-resolver.service';
import { ScanBuffer } from '../redirect/scan-buffer.service';
import { generateShortCode } from './short-code';

/**
 * Search queries (a page or a total) computed at once per instance: a fifth of the pool. Each holds
 * a connection and database CPU for as long as its term takes (seconds for a term matching half a
 * million codes under load), so unbounded, a burst of them would leave other requests no connection.
 */
const SEARCH_SLOTS = Math.max(1, Math.floor(POSTGRES_POOL_SIZE / 5));

/** A collision of 8 random base62 characters is rare; a handful of retries makes it impossible in practice. */
const SHORT_CODE_ATTEMPTS = 5;

export type ItemCheck = { ok: true; code: NewQrCode } | { ok: false; errors: FieldError[] };

@Injectable()
export class QrCodesService {
  readonly origins: QrLinkOrigins;
  private readonly ownHosts: string[];
  private readonly imageSources: NearCache<ImageSource>;
  private readonly searchSlots = new ConcurrencyLimit(SEARCH_SLOTS);

  constructor(
    private readonly codes: QrCodesRepository,
    private readonly folders: FoldersService,
    @Inject(CACHE) private readonly cache: Cache,
    private readonly links: LinkResolver,
    private readonly scans: ScanBuffer,
    private readonly versions: AccountVersions,
    private readonly searchResults: SearchResultCache,
    nearCaches: NearCacheRegistry,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.imageSources = imageSources(nearCaches);
    this.origins = { baseUrl: config.baseUrl, redirectUrl: config.redirectUrl };
    this.ownHosts = [...new Set([new URL(config.redirectUrl).host, new URL(config.baseUrl).host])];
  }

  private context(): RuleContext {
    return { ownHosts: this.ownHosts, now: new Date() };
  }

  /** Checks create items (already shape-validated DTOs): the rules, then folder ownership in one query per folder. */
  async checkNew(accountId: AccountId, items: CreateQrCodeDto[]): Promise<ItemCheck[]> {
    const context = this.context();
    const checks = items.map((item) => checkNewQrCode(item, context));
    const folderIds = [...new Set(checks.flatMap((check) => (check.ok && check.value.folderId ? [check.value.folderId] : [])))];
    const owned = new Set<string>();
    for (const folderId of folderIds) if (await this.folders.owns(accountId, folderId)) owned.add(folderId);
    return checks.map((check) => {
      if (!check.ok) return check;
      if (check.value.folderId && !owned.has(check.value.folderId)) {
        return { ok: false, errors: [{ field: 'folder_id', message: 'folder_id does not name one of your folders' }] };
      }
      return { ok: true, code: check.value };
    });
  }

  /** Inserts valid codes in one transaction, assigning short codes to dynamic ones (retried on collision). */
  async insert(accountId: AccountId, codes: NewQrCode[]): Promise<QrCodeRecord[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        const inserted = await this.codes.insert(accountId, codes.map((code) => ({ ...code, shortCode: code.isDynamic ? generateShortCode() : null })));
        await this.versions.replace(accountId);
        return inserted;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= SHORT_CODE_ATTEMPTS) throw error;
      }
    }
  }

  async create(accountId: AccountId, dto: CreateQrCodeDto) {
    const [check] = await this.checkNew(accountId, [dto]);
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const [created] = await this.insert(accountId, [check.code]);
    return toCreated(created, this.origins);
  }

  async list(accountId: AccountId, query: ListQrCodesQuery) {
    const filter: ListFilter = {
      type: query.type,
      isDynamic: query.is_dynamic === undefined ? undefined : query.is_dynamic === 'true',
      folderId: query.folder_id,
      search: query.search?.trim() || undefined,
    };
    // A search's ids and total come first, outside the scan buffer's gate: only the rows and their
    // pending scans must be read as one step, and a slow search must not hold up scan flushes (and
    // every read queued behind one).
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
    const [ids, total] = await Promise.all([
      results.remember(['page', filter, sort, page, limit], () => this.searchSlots.run(() => this.codes.pageIds(accountId, filter, sort, page, limit))),
      results.remember(['total', filter], () => this.searchSlots.run(() => this.codes.count(accountId, filter))),
    ]);
    return { ids, total };
  }

  /** The code of the account, or 404 (also when another account owns it). */
  async findOwned(accountId: AccountId, id: string): Promise<QrCodeRecord> {
    const code = await this.codes.find(accountId, id);
    if (!code) throw new NotFoundException('QR code not found');
    return code;
  }

  async get(accountId: AccountId, id: string) {
    const { result: code, pending } = await this.scans.readWithPending(
      () => this.findOwned(accountId, id),
      (found) => (found.isDynamic ? [found.id] : []),
    );
    return toListItem(code, this.origins, pending.get(id));
  }

  async update(accountId: AccountId, id: string, dto: UpdateQrCodeDto): Promise<void> {
    const current = await this.findOwned(accountId, id);
    const check = checkQrCodeUpdate(current, dto, this.context());
    if (!check.ok) throw new ValidationFailedException(check.errors);
    const { upgradeToDynamic, ...changes } = check.value;
    if (changes.folderId && !(await this.folders.owns(accountId, changes.folderId))) {
      throw new ValidationFailedException([{ field: 'folder_id', message: 'folder_id does not name one of your folders' }]);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const updated = await this.codes.update(accountId, id, { ...changes, upgradeWithShortCode: upgradeToDynamic ? generateShortCode() : undefined });
        if (!updated) throw new NotFoundException('QR code not found');
        await this.versions.replace(accountId);
        await this.imageSources.invalidate(imageSourceKey(accountId, id));
        if (updated.shortCode) await this.links.invalidate(updated.shortCode);
        return;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= SHORT_CODE_ATTEMPTS) throw error;
      }
    }
  }

  async delete(accountId: AccountId, id: string): Promise<void> {
    const deleted = await this.codes.delete(accountId, id);
    if (!deleted) throw new NotFoundException('QR code not found');
    await this.versions.replace(accountId);
    await this.imageSources.invalidate(imageSourceKey(accountId, id));
    if (deleted.shortCode) await this.links.invalidate(deleted.shortCode);
    await this.cache.deleteByPrefix(imageCachePrefix(id));
  }
}
