import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import { sql } from 'kysely';
import type { FolderId, QrCodeId, ShareLinkId, TagId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import type { StatsSection } from './stats-page/stats-sections';

export interface ShareLinkRecord {
  id: ShareLinkId;
  accountId: AccountId;
  qrCodeId: QrCodeId | null;
  folderId: FolderId | null;
  tagId: TagId | null;
  /** the tag's name now (a rename shows at once); null: not a tag's link */
  tagName: string | null;
  fields: StatsSection[];
  passwordHash: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export type ShareSubject = { qrCodeId: QrCodeId } | { folderId: FolderId } | { tagId: TagId };
export type NewShareLink = Pick<ShareLinkRecord, 'id' | 'fields' | 'passwordHash' | 'expiresAt' | 'createdAt'>;

const COLUMNS = [
  'id',
  'account_id',
  'qr_code_id',
  'folder_id',
  'tag_id',
  'fields',
  'password_hash',
  'expires_at',
  'revoked_at',
  'created_at',
  sql<string | null>`(SELECT t.name FROM tags t WHERE t.id = share_links.tag_id)`.as('tag_name'),
] as const;

@Injectable()
export class ShareLinksRepository {
  constructor(private readonly database: Database) {}

  async create(tx: Tables, accountId: AccountId, subject: ShareSubject, link: NewShareLink): Promise<ShareLinkRecord> {
    const row = await tx
      .forAccount(accountId)
      .insertInto('share_links', [
        {
          id: link.id,
          qr_code_id: 'qrCodeId' in subject ? subject.qrCodeId : null,
          folder_id: 'folderId' in subject ? subject.folderId : null,
          tag_id: 'tagId' in subject ? subject.tagId : null,
          fields: link.fields,
          password_hash: link.passwordHash,
          expires_at: link.expiresAt,
          created_at: link.createdAt,
        },
      ])
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async listOf(accountId: AccountId, subject: ShareSubject): Promise<ShareLinkRecord[]> {
    let query = this.database.read.forAccount(accountId).selectFrom('share_links').select(COLUMNS);
    if ('qrCodeId' in subject) query = query.where('qr_code_id', '=', subject.qrCodeId);
    else if ('folderId' in subject) query = query.where('folder_id', '=', subject.folderId);
    else query = query.where('tag_id', '=', subject.tagId);
    return (await query.orderBy('created_at', 'desc').orderBy('id').execute()).map(toRecord);
  }

  async find(accountId: AccountId, id: ShareLinkId): Promise<ShareLinkRecord | null> {
    const row = await this.database.read.forAccount(accountId).selectFrom('share_links').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  /** Marks the link revoked (once: a second revoke keeps the first time). */
  async revoke(tx: Tables, accountId: AccountId, id: ShareLinkId, at: Date): Promise<void> {
    await tx.forAccount(accountId).updateTable('share_links').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }

  /** The link a public token names, whoever owns it (the token itself is the credential). */
  async findByToken(id: ShareLinkId): Promise<ShareLinkRecord | null> {
    const row = await this.database.read.anyAccount.selectFrom('share_links').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }
}

type Row = {
  id: ShareLinkId;
  account_id: AccountId;
  qr_code_id: QrCodeId | null;
  folder_id: FolderId | null;
  tag_id: TagId | null;
  tag_name: string | null;
  fields: string[] | null;
  password_hash: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
};

function toRecord(row: Row): ShareLinkRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    qrCodeId: row.qr_code_id,
    folderId: row.folder_id,
    tagId: row.tag_id,
    tagName: row.tag_name,
    fields: (row.fields ?? []) as StatsSection[],
    passwordHash: row.password_hash,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
  };
}
