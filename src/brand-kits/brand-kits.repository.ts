import { Injectable } from '@nestjs/common';
import { type Selectable, sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { BrandKitId, DomainId } from '../common/ids/resource-ids';
import type { BrandKit } from '../generated/kysely/database';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import type { KitLook } from './kit-style';

export interface BrandKitRecord extends KitLook {
  id: BrandKitId;
  name: string;
  enforced: boolean;
  isDefault: boolean;
  /** goes up with every change of the kit's look: part of its codes' image cache keys */
  version: number;
  /** the domains whose default it is */
  domainIds: DomainId[];
  createdAt: Date;
  updatedAt: Date;
}

/** What a kit write sets (undefined: unchanged). */
export interface BrandKitChanges {
  name?: string;
  style?: Record<string, unknown>;
  frame?: Record<string, unknown> | null;
  logo?: string | null;
  enforced?: boolean;
  isDefault?: boolean;
  domainIds?: DomainId[];
}

/** The kits a new code on a domain gets when it names none, with the domain's hostname. */
export interface DefaultKits {
  account: BrandKitRecord | null;
  byDomain: Map<DomainId, { hostname: string; kit: BrandKitRecord }>;
}

const toRecord = (row: Selectable<BrandKit>, domainIds: DomainId[]): BrandKitRecord => ({
  id: row.id,
  name: row.name,
  style: row.style as Record<string, unknown>,
  frame: row.frame as Record<string, unknown> | null,
  logo: row.logo,
  enforced: row.enforced,
  isDefault: row.is_default,
  version: row.version,
  domainIds,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The queries of brand kits (docs/brand-kits.md): kits, their domain defaults, and how many codes use each. */
@Injectable()
export class BrandKitsRepository {
  constructor(private readonly database: Database) {}

  private async withDomains(accountId: AccountId, rows: Array<Selectable<BrandKit>>, tables: Tables = this.database.read): Promise<BrandKitRecord[]> {
    if (rows.length === 0) return [];
    const links = await tables
      .forAccount(accountId)
      .selectFrom('brand_kit_domains')
      .select(['brand_kit_id', 'domain_id'])
      .where(
        'brand_kit_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('domain_id')
      .execute();
    return rows.map((row) =>
      toRecord(
        row,
        links.filter((link) => link.brand_kit_id === row.id).map((link) => link.domain_id),
      ),
    );
  }

  async list(accountId: AccountId): Promise<BrandKitRecord[]> {
    const rows = await this.database.read
      .forAccount(accountId)
      .selectFrom('brand_kits')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return this.withDomains(accountId, rows);
  }

  async find(accountId: AccountId, id: BrandKitId, tx?: Tables): Promise<BrandKitRecord | null> {
    let query = (tx ?? this.database.read).forAccount(accountId).selectFrom('brand_kits').selectAll().where('id', '=', id);
    if (tx) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row ? ((await this.withDomains(accountId, [row], tx))[0] ?? null) : null;
  }

  /** The account's kits among ids (others' and missing ones left out). */
  async findAmong(accountId: AccountId, ids: readonly BrandKitId[]): Promise<BrandKitRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.database.read.forAccount(accountId).selectFrom('brand_kits').selectAll().where('id', 'in', ids).execute();
    return this.withDomains(accountId, rows);
  }

  /** The account's default kit, and the default kits of these domains with their hostnames. */
  async defaults(accountId: AccountId, domainIds: readonly DomainId[]): Promise<DefaultKits> {
    const account = this.database.read.forAccount(accountId);
    const [accountRow, domainRows] = await Promise.all([
      account.selectFrom('brand_kits').selectAll().where('is_default', '=', true).executeTakeFirst(),
      domainIds.length === 0
        ? Promise.resolve([])
        : account
            .selectFrom('brand_kit_domains')
            .innerJoin('domains', 'domains.id', 'brand_kit_domains.domain_id')
            .select(['brand_kit_domains.domain_id', 'brand_kit_domains.brand_kit_id', 'domains.hostname'])
            .where('brand_kit_domains.domain_id', 'in', domainIds)
            .execute(),
    ]);
    const kits = await this.findAmong(accountId, [...new Set(domainRows.map((row) => row.brand_kit_id))]);
    const byDomain = new Map<DomainId, { hostname: string; kit: BrandKitRecord }>();
    for (const row of domainRows) {
      const kit = kits.find((candidate) => candidate.id === row.brand_kit_id);
      if (kit) byDomain.set(row.domain_id, { hostname: row.hostname, kit });
    }
    return { account: accountRow ? (await this.withDomains(accountId, [accountRow]))[0] : null, byDomain };
  }

  async insert(tx: Tables, accountId: AccountId, kit: Required<Omit<BrandKitChanges, 'domainIds'>> & { domainIds: DomainId[] }): Promise<BrandKitId> {
    const id = randomUUID() as BrandKitId;
    const now = new Date();
    if (kit.isDefault) await this.clearDefault(tx, accountId);
    await tx
      .forAccount(accountId)
      .insertInto('brand_kits', [
        {
          id,
          name: kit.name,
          style: JSON.stringify(kit.style),
          frame: kit.frame === null ? null : JSON.stringify(kit.frame),
          logo: kit.logo,
          enforced: kit.enforced,
          is_default: kit.isDefault,
          created_at: now,
          updated_at: now,
        },
      ])
      .execute();
    await this.setDomains(tx, accountId, id, kit.domainIds);
    return id;
  }

  /** Applies changes; `looks` true: the kit's look changed, so its version goes up. */
  async update(tx: Tables, accountId: AccountId, id: BrandKitId, changes: BrandKitChanges, looks: boolean): Promise<void> {
    if (changes.isDefault) await this.clearDefault(tx, accountId, id);
    await tx
      .forAccount(accountId)
      .updateTable('brand_kits')
      .set((eb) => ({
        updated_at: new Date(),
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.style !== undefined && { style: JSON.stringify(changes.style) }),
        ...(changes.frame !== undefined && { frame: changes.frame === null ? null : JSON.stringify(changes.frame) }),
        ...(changes.logo !== undefined && { logo: changes.logo }),
        ...(changes.enforced !== undefined && { enforced: changes.enforced }),
        ...(changes.isDefault !== undefined && { is_default: changes.isDefault }),
        ...(looks && { version: eb('version', '+', 1) }),
      }))
      .where('id', '=', id)
      .execute();
    if (changes.domainIds !== undefined) await this.setDomains(tx, accountId, id, changes.domainIds);
  }

  async delete(tx: Tables, accountId: AccountId, id: BrandKitId): Promise<boolean> {
    const deleted = await tx.forAccount(accountId).deleteFrom('brand_kits').where('id', '=', id).executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  }

  /** How many of the account's codes use the kit (a folder-restricted key: in its folders). */
  async codeCounts(accountId: AccountId, ids: readonly BrandKitId[]): Promise<Map<BrandKitId, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.database.read
      .forAccount(accountId)
      .selectFrom('qr_codes')
      .select(['brand_kit_id', (eb) => eb.fn.countAll<string>().as('n')])
      .where('brand_kit_id', 'in', ids)
      .groupBy('brand_kit_id')
      .execute();
    return new Map(rows.map((row) => [row.brand_kit_id!, Number(row.n)]));
  }

  private async clearDefault(tx: Tables, accountId: AccountId, except?: BrandKitId): Promise<void> {
    let query = tx.forAccount(accountId).updateTable('brand_kits').set({ is_default: false }).where('is_default', '=', true);
    if (except) query = query.where('id', '<>', except);
    await query.execute();
  }

  /** The kit becomes the default of exactly these domains (a domain's previous default kit gives it up). */
  private async setDomains(tx: Tables, accountId: AccountId, id: BrandKitId, domainIds: readonly DomainId[]): Promise<void> {
    const links = tx.forAccount(accountId);
    await links.deleteFrom('brand_kit_domains').where('brand_kit_id', '=', id).execute();
    if (domainIds.length === 0) return;
    await links
      .insertInto(
        'brand_kit_domains',
        domainIds.map((domainId) => ({ domain_id: domainId, brand_kit_id: id })),
      )
      .onConflict((conflict) => conflict.column('domain_id').doUpdateSet({ brand_kit_id: sql`excluded.brand_kit_id` }))
      .execute();
  }
}
