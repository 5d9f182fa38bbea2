import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { AccountId } from '../../common/ids/account-id';
import type { DomainId, Gs1ItemId } from '../../common/ids/resource-ids';
import { FieldConflictException } from '../../common/validation/field-conflict.exception';
import type { FieldError } from '../../common/validation/field-error';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { type OwnHosts, redirectHostAliases } from '../../common/web/redirect-target';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { DomainsService, NOT_YOUR_DOMAIN } from '../../domains/domains.service';
import { AuditTrail } from '../../infra/audit/audit-trail';
import { Database } from '../../infra/database/database.service';
import { isUniqueViolation } from '../../infra/database/refused-data';
import { restrictedFolders } from '../../infra/http/request-context';
import { Gs1ItemLookup } from '../resolver/gs1-item-lookup';
import { Gs1ScanBuffer } from '../scans/gs1-scan-buffer';
import { Gs1ItemEvents } from './gs1-item-events';
import { humanReadable, parseKeyPath } from '../syntax/digital-link-key';
import type { Gs1ItemBodyDto, Gs1ItemUpdateDto, Gs1ItemView, ListGs1ItemsQuery } from './dto/gs1-item.dto';
import { checkLinks, checkPath, type StoredLink } from './gs1-item-rules';
import { type Gs1ItemRecord, Gs1ItemsRepository } from './gs1-items.repository';

const PATH_TAKEN: FieldError = {
  field: 'path',
  message: 'path is already an item on this host (the default host’s paths are shared by every account)',
};

/** GS1 items: an account's GS1 keys and their links (docs/gs1-digital-link.md). */
@Injectable()
export class Gs1ItemsService {
  private readonly ownHosts: OwnHosts;

  constructor(
    private readonly items: Gs1ItemsRepository,
    private readonly domains: DomainsService,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    private readonly lookup: Gs1ItemLookup,
    private readonly pendingScans: Gs1ScanBuffer,
    private readonly events: Gs1ItemEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.ownHosts = redirectHostAliases([config.redirectUrl, config.baseUrl]);
  }

  async create(accountId: AccountId, body: Gs1ItemBodyDto): Promise<Gs1ItemView> {
    // A key limited to some folders sees no GS1 item (they are in no folder): it could not see what it made.
    if (restrictedFolders(accountId)) throw new ForbiddenException('This API key is limited to some folders: it cannot create GS1 items');
    const path = checkPath(body.path);
    const links = checkLinks(body.links, this.ownHosts);
    const errors = [...(path.ok ? [] : path.errors), ...(links.ok ? [] : links.errors)];
    if (errors.length > 0 || !path.ok || !links.ok) throw new ValidationFailedException(errors);
    const domainId = (body.domain_id ?? null) as DomainId | null;
    if (!(await this.isOwnDomain(accountId, domainId))) throw new ValidationFailedException([NOT_YOUR_DOMAIN]);
    const item = {
      domainId,
      path: path.value.path,
      primaryAi: path.value.key.primary.ai,
      primaryValue: path.value.key.primary.value,
      name: body.name ?? null,
      links: links.value,
    };
    try {
      const id = await this.database.transaction(async (tx) => {
        const created = await this.items.insert(tx, accountId, item);
        await this.audit.record(tx, {
          accountId,
          action: 'gs1_item.create',
          resourceType: 'gs1_item',
          resourceId: created,
          after: auditedFields(item),
        });
        if (this.events.hasTransactionListeners)
          await this.events.recordInTransaction(tx, {
            kind: 'created',
            accountId,
            item: this.view(orNotFound(await this.items.find(accountId, created, tx))),
          });
        return created;
      });
      // A resolution of the path may have remembered that no item was there.
      await this.lookup.forget(domainId, item.path);
      return this.get(accountId, id);
    } catch (error) {
      if (isUniqueViolation(error)) throw new FieldConflictException([PATH_TAKEN]);
      throw error;
    }
  }

  /** What a create of `body` would refuse, without writing (a CSV import's dry run): the path, the links, the domain. */
  async refusalsOf(accountId: AccountId, body: Gs1ItemBodyDto): Promise<FieldError[]> {
    const path = checkPath(body.path);
    const links = checkLinks(body.links, this.ownHosts);
    const errors = [...(path.ok ? [] : path.errors), ...(links.ok ? [] : links.errors)];
    if (!(await this.isOwnDomain(accountId, (body.domain_id ?? null) as DomainId | null))) errors.push(NOT_YOUR_DOMAIN);
    return errors;
  }

  /** The id of the account's item at this normalised path on this host, if any. */
  async idAt(accountId: AccountId, domainId: DomainId | null, path: string): Promise<Gs1ItemId | null> {
    return this.items.idAt(accountId, domainId, path);
  }

  private async isOwnDomain(accountId: AccountId, domainId: DomainId | null): Promise<boolean> {
    return domainId === null || (await this.domains.verifiedAmong(accountId, [domainId])).has(domainId);
  }

  async get(accountId: AccountId, id: Gs1ItemId): Promise<Gs1ItemView> {
    return this.view(orNotFound(await this.items.find(accountId, id)));
  }

  async list(accountId: AccountId, query: ListGs1ItemsQuery) {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const primaryValue = query.key === undefined ? undefined : normalisedKeyValue(query.key);
    const { items, total } = await this.items.list(accountId, { primaryValue, domainId: query.domain_id as DomainId | undefined }, page, limit);
    return { data: items.map((item) => this.view(item)), pagination: { page, limit, total, total_pages: Math.ceil(total / limit) } };
  }

  async update(accountId: AccountId, id: Gs1ItemId, body: Gs1ItemUpdateDto): Promise<Gs1ItemView> {
    let links: StoredLink[] | undefined;
    if (body.links !== undefined) {
      const checked = checkLinks(body.links, this.ownHosts);
      if (!checked.ok) throw new ValidationFailedException(checked.errors);
      links = checked.value;
    }
    const changes = { ...(body.name !== undefined && { name: body.name }), ...(links && { links }) };
    const changed = await this.database.transaction(async (tx) => {
      const before = orNotFound(await this.items.update(tx, accountId, id, changes));
      await this.audit.record(tx, {
        accountId,
        action: 'gs1_item.update',
        resourceType: 'gs1_item',
        resourceId: id,
        before: auditedFields(before),
        after: auditedFields({ ...before, ...changes }),
      });
      if (this.events.hasTransactionListeners) {
        const item = this.view(orNotFound(await this.items.find(accountId, id, tx)));
        await this.events.recordInTransaction(tx, { kind: 'updated', accountId, item, changed: Object.keys(changes) });
      }
      return before;
    });
    await this.lookup.forget(changed.domainId, changed.path);
    return this.get(accountId, id);
  }

  async delete(accountId: AccountId, id: Gs1ItemId): Promise<void> {
    const deleted = await this.database.transaction(async (tx) => {
      const found = orNotFound(await this.items.delete(tx, accountId, id));
      await this.audit.record(tx, { accountId, action: 'gs1_item.delete', resourceType: 'gs1_item', resourceId: id, before: auditedFields(found) });
      if (this.events.hasTransactionListeners) await this.events.recordInTransaction(tx, { kind: 'deleted', accountId, item: this.view(found) });
      return found;
    });
    await this.lookup.forget(deleted.domainId, deleted.path);
  }

  /** The full Digital Link URI of an item: its domain's root, or the default host under the prefix. */
  uriOf(item: { hostname: string | null; path: string }): string {
    return item.hostname ? `https://${item.hostname}${item.path}` : `${this.config.redirectUrl}${this.config.gs1PathPrefix}${item.path}`;
  }

  private view(item: Gs1ItemRecord): Gs1ItemView {
    const key = parseKeyPath(item.path);
    return {
      id: item.id,
      path: item.path,
      uri: this.uriOf(item),
      hri: key.ok ? humanReadable(key.value) : item.path,
      domain_id: item.domainId,
      name: item.name,
      links: item.links,
      scans: item.scans + this.pendingScans.pendingOf(item.id),
      created_at: item.createdAt.toISOString(),
      updated_at: item.updatedAt.toISOString(),
    };
  }
}

const auditedFields = (item: { path?: string; domainId?: DomainId | null; name?: string | null; links?: StoredLink[] }) => ({
  ...(item.path !== undefined && { path: item.path }),
  ...(item.domainId !== undefined && { domain_id: item.domainId }),
  ...(item.name !== undefined && { name: item.name }),
  ...(item.links !== undefined && { links: item.links }),
});

/** A GTIN filter given in 8, 12 or 13 digits finds its 14-digit form. */
const normalisedKeyValue = (value: string): string => (/^(\d{8}|\d{12}|\d{13})$/.test(value) ? value.padStart(14, '0') : value);

function orNotFound<T>(value: T | null): T {
  if (value === null) throw new NotFoundException('GS1 item not found');
  return value;
}
