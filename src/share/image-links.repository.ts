import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { ImageLinkId, QrCodeId } from '../common/ids/resource-ids';
import { Database } from '../infra/database/database.service';
import type { Tables } from '../infra/database/tables';
import type { ImageLinkFormat } from './dto/image-link.dto';

export interface ImageLinkRecord {
  id: ImageLinkId;
  accountId: AccountId;
  qrCodeId: QrCodeId;
  size: number;
  format: ImageLinkFormat;
  styleOverrides: Record<string, unknown> | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export type NewImageLink = Omit<ImageLinkRecord, 'accountId' | 'revokedAt'>;

const COLUMNS = ['id', 'account_id', 'qr_code_id', 'size', 'format', 'style_overrides', 'expires_at', 'revoked_at', 'created_at'] as const;

@Injectable()
export class ImageLinksRepository {
  constructor(private readonly database: Database) {}

  /** The account's signing secret, made on first use (two instances making it at once keep the first). */
  async secretOf(tx: Tables, accountId: AccountId): Promise<Buffer> {
    const keys = tx.forAccount(accountId);
    await keys
      .insertInto('image_link_keys', [{ secret: randomBytes(32).toString('hex'), created_at: new Date() }])
      .onConflict((conflict) => conflict.column('account_id').doNothing())
      .execute();
    const row = await keys.selectFrom('image_link_keys').select('secret').executeTakeFirstOrThrow();
    return Buffer.from(row.secret, 'hex');
  }

  async create(tx: Tables, accountId: AccountId, link: NewImageLink): Promise<ImageLinkRecord> {
    const row = await tx
      .forAccount(accountId)
      .insertInto('image_links', [
        {
          id: link.id,
          qr_code_id: link.qrCodeId,
          size: link.size,
          format: link.format,
          style_overrides: link.styleOverrides === null ? null : JSON.stringify(link.styleOverrides),
          expires_at: link.expiresAt,
          created_at: link.createdAt,
        },
      ])
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return toRecord(row);
  }

  async listOf(accountId: AccountId, codeId: QrCodeId): Promise<ImageLinkRecord[]> {
    const rows = await this.database.read
      .forAccount(accountId)
      .selectFrom('image_links')
      .select(COLUMNS)
      .where('qr_code_id', '=', codeId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(toRecord);
  }

  async find(accountId: AccountId, id: ImageLinkId): Promise<ImageLinkRecord | null> {
    const row = await this.database.read.forAccount(accountId).selectFrom('image_links').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async revoke(tx: Tables, accountId: AccountId, id: ImageLinkId, at: Date): Promise<void> {
    await tx.forAccount(accountId).updateTable('image_links').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }

  /** A new secret for the account and every standing link revoked; the number revoked. */
  async rotate(tx: Tables, accountId: AccountId, at: Date): Promise<number> {
    const scope = tx.forAccount(accountId);
    await scope.deleteFrom('image_link_keys').execute();
    await this.secretOf(tx, accountId);
    const revoked = await scope.updateTable('image_links').set({ revoked_at: at }).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(revoked.numUpdatedRows);
  }

  /** The link a public token names, with its account's current secret, whoever owns it (the token is the credential). */
  async findByToken(id: ImageLinkId): Promise<{ link: ImageLinkRecord; secret: Buffer | null } | null> {
    const row = await this.database.read.anyAccount
      .selectFrom('image_links')
      .leftJoin('image_link_keys', 'image_link_keys.account_id', 'image_links.account_id')
      .select(COLUMNS.map((column) => `image_links.${column}` as const))
      .select('image_link_keys.secret')
      .where('image_links.id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return { link: toRecord(row), secret: row.secret === null ? null : Buffer.from(row.secret, 'hex') };
  }
}

type Row = {
  id: ImageLinkId;
  account_id: AccountId;
  qr_code_id: QrCodeId;
  size: number;
  format: string;
  style_overrides: unknown;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
};

function toRecord(row: Row): ImageLinkRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    qrCodeId: row.qr_code_id,
    size: row.size,
    format: row.format as ImageLinkFormat,
    styleOverrides: (row.style_overrides as Record<string, unknown> | null) ?? null,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    createdAt: row.created_at,
  };
}
