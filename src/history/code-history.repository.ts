import { Injectable } from '@nestjs/common';
import type { Selectable } from 'kysely';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { QrCodeVersion } from '../generated/kysely/database';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import type { VersionedState } from './versioned-state';

/** One version of a code as stored. */
export interface CodeVersionRecord {
  version: number;
  createdAt: Date;
  keyPrefix: string | null;
  restoredFrom: number | null;
  /** as stored: read it with storedState (fields versioned later are missing from old versions) */
  state: Record<string, unknown>;
}

/** A version to append: the code's first change also writes version 1 (`first`), the state at creation. */
export interface NewCodeVersions {
  first: Omit<CodeVersionRecord, 'version' | 'restoredFrom'>;
  next: Omit<CodeVersionRecord, 'version' | 'createdAt'>;
}

const toRecord = (row: Selectable<QrCodeVersion>): CodeVersionRecord => ({
  version: row.version,
  createdAt: row.created_at,
  keyPrefix: row.key_prefix,
  restoredFrom: row.restored_from,
  state: row.state as Record<string, unknown>,
});

/**
 * The versions of codes (docs/statuses-and-lifecycle.md#destination-history). Callers check that
 * the code is the account's (and within the request key's folders) before reading its versions;
 * every query also carries the account.
 */
@Injectable()
export class CodeHistoryRepository {
  constructor(private readonly database: Database) {}

  /**
   * Appends the next version in the change's transaction, which holds the code's row lock: versions
   * of one code are numbered 1, 2, 3… in commit order. Returns the number it took.
   */
  async append(tx: Tables, accountId: AccountId, codeId: QrCodeId, versions: NewCodeVersions): Promise<number> {
    const versionsOfAccount = tx.forAccount(accountId);
    const latest = await versionsOfAccount
      .selectFrom('qr_code_versions')
      .select('version')
      .where('qr_code_id', '=', codeId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    const row = (version: number, at: Date | undefined, keyPrefix: string | null, restoredFrom: number | null, state: VersionedState) => ({
      qr_code_id: codeId,
      version,
      ...(at && { created_at: at }),
      key_prefix: keyPrefix,
      restored_from: restoredFrom,
      state: JSON.stringify(state),
    });
    const { first, next } = versions;
    const nextVersion = (latest?.version ?? 1) + 1;
    await versionsOfAccount
      .insertInto('qr_code_versions', [
        ...(latest ? [] : [row(1, first.createdAt, first.keyPrefix, null, first.state as VersionedState)]),
        row(nextVersion, undefined, next.keyPrefix, next.restoredFrom, next.state as VersionedState),
      ])
      .execute();
    return nextVersion;
  }

  /**
   * Versions of a code, newest first: those at positions `offset` to `offset + count - 1` (0: the
   * newest) and the one just before them (its state is what the oldest of them changed). One
   * statement, so the numbering it sees is one snapshot's.
   */
  async newestFirst(accountId: AccountId, codeId: QrCodeId, offset: number, count: number): Promise<CodeVersionRecord[]> {
    const rows = await this.database.read
      .forAccount(accountId)
      .selectFrom('qr_code_versions')
      .selectAll()
      .where('qr_code_id', '=', codeId)
      .orderBy('version', 'desc')
      .limit(count + 1)
      .offset(offset)
      .execute();
    return rows.map(toRecord);
  }

  /** The newest version's number, or undefined while the code has none stored (only version 1, read from the code). */
  async latest(accountId: AccountId, codeId: QrCodeId): Promise<number | undefined> {
    const row = await this.database.read
      .forAccount(accountId)
      .selectFrom('qr_code_versions')
      .select('version')
      .where('qr_code_id', '=', codeId)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.version;
  }

  async find(accountId: AccountId, codeId: QrCodeId, version: number): Promise<CodeVersionRecord | undefined> {
    const row = await this.database.read
      .forAccount(accountId)
      .selectFrom('qr_code_versions')
      .selectAll()
      .where('qr_code_id', '=', codeId)
      .where('version', '=', version)
      .executeTakeFirst();
    return row && toRecord(row);
  }
}
