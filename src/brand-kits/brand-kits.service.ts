import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { BrandKitId } from '../common/ids/resource-ids';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { AuditTrail } from '../infra/audit/audit-trail';
import type { NearCache } from '../infra/cache/near-cache';
import { NearCacheRegistry } from '../infra/cache/near-cache';
import { Database } from '../infra/database/database.service';
import { isForeignKeyViolation } from '../infra/database/refused-data';
import type { Tables } from '../infra/database/tables';
import { restrictedFolders } from '../infra/http/request-context';
import { type BrandKitBodyDto, type BrandKitPatchDto, type BrandKitView, toBrandKitView } from './dto/brand-kit.dto';
import { type BrandKitChanges, type BrandKitRecord, BrandKitsRepository } from './brand-kits.repository';
import { checkKitLook, type KitLook } from './kit-style';

/** A kit's look as the images need it, under its version (their cache keys carry it). */
export interface VersionedLook {
  version: number;
  look: KitLook;
}

const kitNotFound = () => new NotFoundException('Brand kit not found');
const NOT_YOUR_DOMAIN = { field: 'domain_ids', message: 'domain_ids must name domains of yours' };

/** What of a kit is audited: its fields, the logo as whether it changed (it can be 256 KB). */
const audited = (kit: Pick<BrandKitRecord, 'name' | 'style' | 'frame' | 'enforced' | 'isDefault' | 'domainIds'> & { logo: string | null }) => ({
  name: kit.name,
  style: kit.style,
  frame: kit.frame,
  logo: kit.logo === null ? null : `${kit.logo.length} characters`,
  enforced: kit.enforced,
  default: kit.isDefault,
  domain_ids: kit.domainIds,
});

/**
 * Brand kits (docs/brand-kits.md): named looks (style, frame, logo) codes are drawn with under their
 * own style. A kit is checked as a style (one that does not scan is refused); a change of its look
 * raises its version, which the images of its codes are cached under, so they are drawn anew on
 * their next request without a write to any code. Kits are the account's: a folder-restricted key
 * reads them but does not write them (a kit draws codes in every folder).
 */
@Injectable()
export class BrandKitsService {
  private readonly looks: NearCache<VersionedLook | null>;

  constructor(
    private readonly kits: BrandKitsRepository,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    nearCaches: NearCacheRegistry,
  ) {
    this.looks = nearCaches.cache<VersionedLook | null>('brand-kit-looks', { maxEntries: 10_000, ttlMs: 60_000 });
  }

  async list(accountId: AccountId): Promise<BrandKitView[]> {
    const kits = await this.kits.list(accountId);
    const counts = await this.kits.codeCounts(
      accountId,
      kits.map((kit) => kit.id),
    );
    return kits.map((kit) => toBrandKitView(kit, counts.get(kit.id) ?? 0));
  }

  async get(accountId: AccountId, id: BrandKitId): Promise<BrandKitView> {
    const kit = await this.kits.find(accountId, id);
    if (!kit) throw kitNotFound();
    return toBrandKitView(kit, (await this.kits.codeCounts(accountId, [id])).get(id) ?? 0);
  }

  async create(accountId: AccountId, body: BrandKitBodyDto): Promise<BrandKitView> {
    this.refuseRestricted(accountId);
    const kit = { name: body.name.trim(), style: body.style ?? {}, frame: body.frame ?? null, logo: body.logo ?? null };
    this.checkLook(kit);
    const id = await this.write(async (tx) => {
      const created = await this.kits.insert(tx, accountId, {
        ...kit,
        enforced: body.enforced ?? false,
        isDefault: body.default ?? false,
        domainIds: body.domain_ids ?? [],
      });
      const after = audited({ ...kit, enforced: body.enforced ?? false, isDefault: body.default ?? false, domainIds: body.domain_ids ?? [] });
      await this.audit.record(tx, { accountId, action: 'brand_kit.create', resourceType: 'brand_kit', resourceId: created, after });
      return created;
    });
    return this.get(accountId, id);
  }

  /** PUT: the whole kit (fields left out take their defaults). */
  replace(accountId: AccountId, id: BrandKitId, body: BrandKitBodyDto): Promise<BrandKitView> {
    return this.update(accountId, id, {
      name: body.name,
      style: body.style ?? {},
      frame: body.frame ?? null,
      logo: body.logo ?? null,
      enforced: body.enforced ?? false,
      default: body.default ?? false,
      domain_ids: body.domain_ids ?? [],
    });
  }

  /** PATCH: the fields sent. */
  async update(accountId: AccountId, id: BrandKitId, body: BrandKitPatchDto): Promise<BrandKitView> {
    this.refuseRestricted(accountId);
    const changes: BrandKitChanges = {
      ...(body.name !== undefined && { name: body.name.trim() }),
      ...(body.style !== undefined && { style: body.style }),
      ...(body.frame !== undefined && { frame: body.frame }),
      ...(body.logo !== undefined && { logo: body.logo }),
      ...(body.enforced !== undefined && { enforced: body.enforced }),
      ...(body.default !== undefined && { isDefault: body.default }),
      ...(body.domain_ids !== undefined && { domainIds: body.domain_ids }),
    };
    await this.write(async (tx) => {
      const before = await this.kits.find(accountId, id, tx);
      if (!before) throw kitNotFound();
      const look = {
        style: changes.style ?? before.style,
        frame: changes.frame !== undefined ? changes.frame : before.frame,
        logo: changes.logo !== undefined ? changes.logo : before.logo,
      };
      this.checkLook(look);
      const looks = JSON.stringify(look) !== JSON.stringify({ style: before.style, frame: before.frame, logo: before.logo });
      await this.kits.update(tx, accountId, id, changes, looks);
      const after = { ...before, ...look, ...changes };
      await this.audit.record(tx, {
        accountId,
        action: 'brand_kit.update',
        resourceType: 'brand_kit',
        resourceId: id,
        before: audited(before),
        after: audited(after),
      });
    });
    await this.looks.invalidate(lookKey(accountId, id));
    return this.get(accountId, id);
  }

  /** Deletes the kit; its codes keep their own style (their brand_kit_id becomes null). */
  async delete(accountId: AccountId, id: BrandKitId): Promise<void> {
    this.refuseRestricted(accountId);
    await this.write(async (tx) => {
      const before = await this.kits.find(accountId, id, tx);
      if (!before || !(await this.kits.delete(tx, accountId, id))) throw kitNotFound();
      await this.audit.record(tx, { accountId, action: 'brand_kit.delete', resourceType: 'brand_kit', resourceId: id, before: audited(before) });
    });
    await this.looks.invalidate(lookKey(accountId, id));
  }

  /** The kit's look and version, for drawing a code (null: no such kit any more); from the near cache when it can. */
  async look(accountId: AccountId, id: BrandKitId): Promise<VersionedLook | null> {
    const key = lookKey(accountId, id);
    const known = this.looks.get(key);
    if (known !== undefined) return known;
    const lookedUpAt = this.looks.mark();
    const kit = await this.kits.findAmong(accountId, [id]);
    const found = kit[0] ? { version: kit[0].version, look: { style: kit[0].style, frame: kit[0].frame, logo: kit[0].logo } } : null;
    this.looks.set(key, found, undefined, lookedUpAt);
    return found;
  }

  private checkLook(look: KitLook): void {
    const errors = checkKitLook(look);
    if (errors.length > 0) throw new ValidationFailedException(errors);
  }

  /** A kit write: a domain that is not the account's (the foreign key refuses it) is the client's mistake. */
  private async write<T>(work: (tx: Tables) => Promise<T>): Promise<T> {
    try {
      return await this.database.transaction(work);
    } catch (error) {
      if (isForeignKeyViolation(error)) throw new ValidationFailedException([NOT_YOUR_DOMAIN]);
      throw error;
    }
  }

  private refuseRestricted(accountId: AccountId): void {
    if (restrictedFolders(accountId))
      throw new ForbiddenException('This API key is limited to some folders: it cannot change brand kits, which draw codes in every folder');
  }
}

const lookKey = (accountId: AccountId, id: BrandKitId) => `${accountId}:${id}`;
