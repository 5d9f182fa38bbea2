import type { FolderId, QrCodeId } from '../common/ids/resource-ids';
import type { QrType } from './content';
import type { SettableStatus } from './qr-code-status';

/** A QR code as the service works with it (one row of qr_codes). */
export interface QrCodeRecord {
  id: QrCodeId;
  name: string;
  type: QrType;
  content: Record<string, unknown>;
  contentString: string;
  style: Record<string, unknown>;
  folderId: FolderId | null;
  isDynamic: boolean;
  shortCode: string | null;
  status: SettableStatus;
  expiresAt: Date | null;
  scans: bigint;
  renderVersion: number;
  createdAt: Date;
  updatedAt: Date;
  /** Display prefix of the key that created it (null: none, or made before it was kept): its history's version 1. */
  createdKeyPrefix: string | null;
}

/** A validated new code, ready to insert (the database assigns the rest). */
export type NewQrCode = Pick<QrCodeRecord, 'name' | 'type' | 'content' | 'contentString' | 'style' | 'folderId' | 'isDynamic' | 'expiresAt'>;
