import {
  type DeleteQueryBuilder,
  type DeleteResult,
  type Insertable,
  type InsertQueryBuilder,
  type InsertResult,
  Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  sql,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { AccountId } from '../../common/ids/account-id';
import type { FolderId } from '../../common/ids/resource-ids';
import { restrictedFolders } from '../http/request-context';
import type { DB } from '../../generated/kysely/database';
import { PrismaDialect, type RawQueryRunner } from './kysely-over-prisma';

/** Tables whose rows belong to an account (their account_id column). */
export type OwnedTable =
  | 'qr_codes'
  | 'folders'
  | 'api_keys'
  | 'qr_code_counts'
  | 'webhook_endpoints'
  | 'webhook_events'
  | 'webhook_deliveries'
  | 'webhook_attempts'
  | 'idempotency_keys'
  | 'audit_log'
  | 'domains'
  | 'qr_code_versions'
  | 'jobs'
  | 'export_chunks'
  | 'import_rows'
  | 'scan_code_days'
  | 'scan_account_days'
  | 'scan_account_day_values'
  | 'share_links'
  | 'image_links'
  | 'image_link_keys'
  | 'tags'
  | 'tag_code_counts'
  | 'brand_kits'
  | 'brand_kit_domains'
  | 'gs1_items'
  | 'gs1_scan_events';

/**
 * The column by which a folder-restricted API key narrows an owned table (docs/api-keys-and-security.md#folder-restricted-keys):
 * such a key sees only rows in its folders, as if the others did not exist.
 */
const FOLDER_COLUMN: Partial<Record<OwnedTable, string>> = {
  qr_codes: 'qr_codes.folder_id',
  qr_code_counts: 'qr_code_counts.folder_key',
  folders: 'folders.id',
  webhook_endpoints: 'webhook_endpoints.folder_id',
  scan_account_days: 'scan_account_days.folder_key',
  tag_code_counts: 'tag_code_counts.folder_key',
};

/**
 * Owned tables summing all of an account's codes with no folder to narrow by: a folder-restricted
 * key sees none of their rows (what it may see is read from its codes' own rows instead).
 */
const WHOLE_ACCOUNT_TABLES: ReadonlySet<OwnedTable> = new Set(['scan_account_day_values', 'gs1_items', 'gs1_scan_events']);
/** No account has the nil UUID: matching only it matches nothing. */
const NO_ACCOUNT = '00000000-0000-0000-0000-000000000000' as FolderId;

/**
 * Tables no account owns. The scan tables keyed by code alone are left out too: their rows belong
 * to a code, and are read through the account's codes (AccountTables).
 */
export type SharedTables = Omit<DB, OwnedTable | 'scan_events' | 'scan_code_day_values' | 'scan_day_visitors'>;

/**
 * The account's rows of the owned tables, and nothing else: every query built here has
 * `<table>.account_id = <account>` in its WHERE clause (or its rows' account_id set, for inserts).
 * This is the only way into an owned table for code that acts for an account; see Tables.
 */
export class AccountTables {
  constructor(
    private readonly db: Kysely<DB>,
    readonly accountId: AccountId,
    /** null: every folder; else rows of the folder-narrowed tables only in these folders (FOLDER_COLUMN) */
    readonly folderIds: readonly FolderId[] | null = null,
  ) {}

  selectFrom<T extends OwnedTable>(table: T): SelectQueryBuilder<DB, T, object> {
    const name: OwnedTable = table;
    return this.inFolders(name, this.owned.selectFrom(name).where(ownerOf(name), '=', this.accountId));
  }

  updateTable<T extends OwnedTable>(table: T): UpdateQueryBuilder<DB, T, T, UpdateResult> {
    const name: OwnedTable = table;
    return this.inFolders(name, this.owned.updateTable(name).where(ownerOf(name), '=', this.accountId)) as unknown as UpdateQueryBuilder<
      DB,
      T,
      T,
      UpdateResult
    >;
  }

  deleteFrom<T extends OwnedTable>(table: T): DeleteQueryBuilder<DB, T, DeleteResult> {
    const name: OwnedTable = table;
    return this.inFolders(name, this.owned.deleteFrom(name).where(ownerOf(name), '=', this.accountId)) as unknown as DeleteQueryBuilder<
      DB,
      T,
      DeleteResult
    >;
  }

  /** Narrows a query of a folder-narrowed table to the key's folders (no folder: no row). */
  private inFolders<Q extends { where(ref: RawBuilder<unknown>, op: 'in', values: readonly FolderId[]): Q }>(table: OwnedTable, query: Q): Q {
    if (!this.folderIds) return query;
    if (WHOLE_ACCOUNT_TABLES.has(table)) return query.where(sql.ref(`${table}.account_id`), 'in', [NO_ACCOUNT]);
    const column = FOLDER_COLUMN[table];
    return column ? query.where(sql.ref(column), 'in', this.folderIds) : query;
  }

  /** The owned tables seen only by their owner column, so one generic query serves each of them. */
  private get owned(): Kysely<Record<OwnedTable, { account_id: AccountId }>> {
    return this.db as unknown as Kysely<Record<OwnedTable, { account_id: AccountId }>>;
  }

  /**
   * Runs raw SQL (for statements the builder cannot say well, like a report of several CTEs) that
   * reaches owned rows only through subqueries built from this scope, interpolated into it.
   */
  execute<R>(query: RawBuilder<R>): Promise<R[]> {
    return query.execute(this.db).then((result) => result.rows);
  }

  insertInto<T extends OwnedTable>(table: T, rows: ReadonlyArray<Omit<Insertable<DB[T]>, 'account_id'>>): InsertQueryBuilder<DB, T, InsertResult> {
    const owned = rows.map((row) => ({ ...row, account_id: this.accountId })) as unknown as Insertable<DB[T]>[];
    return this.db.insertInto(table).values(owned);
  }
}

/** The account column of an owned table, qualified (a join may bring another table's account_id). */
function ownerOf(table: OwnedTable) {
  return sql.ref<AccountId>(`${table}.account_id`);
}

/**
 * The tables, over one Prisma client (a pool) or one transaction. Code that acts for an account
 * reaches owned rows only through `forAccount`; `shared` has no owned table in its type, so an
 * unscoped query of codes or folders does not compile. `anyAccount` is the one exception, for
 * lookups by an identifier that is itself the credential or the public name (a key's hash, a
 * short code) and for system work (scan stores): the files allowed to use it are listed in
 * src/infra/database/ownership.spec.ts.
 */
export class Tables {
  readonly shared: Kysely<SharedTables>;
  readonly anyAccount: Kysely<DB>;

  constructor(runner: RawQueryRunner) {
    this.anyAccount = new Kysely<DB>({ dialect: new PrismaDialect(runner) });
    this.shared = this.anyAccount as unknown as Kysely<SharedTables>;
  }

  /**
   * The account's rows. Inside a request made with a folder-restricted key of this account, the
   * folder-narrowed tables show only that key's folders: the restriction is in every query, like
   * the owner, and cannot be forgotten by a repository.
   */
  forAccount(accountId: AccountId): AccountTables {
    return new AccountTables(this.anyAccount, accountId, restrictedFolders(accountId));
  }

  /**
   * The account's rows in every folder, whatever key the request has: for what the service does
   * on the account's behalf as a consequence of a write (the webhook outbox fanning a change out to
   * every endpoint of the account), never to answer a key's read.
   */
  forWholeAccount(accountId: AccountId): AccountTables {
    return new AccountTables(this.anyAccount, accountId);
  }
}
