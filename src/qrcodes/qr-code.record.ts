import type { DomainId, FolderId, QrCodeId } from '../common/ids/resource-ids';
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
  /** The branded domain its link is on (null: the default redirect host), and that domain's hostname. */
  domainId: DomainId | null;
  domainHostname: string | null;
  status: SettableStatus;
  expiresAt: Date | null;
  scans: bigint;
  renderVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

/** A validated new code, ready to insert (the database assigns the rest). */
export type NewQrCode = Pick<QrCodeRecord, 'name' | 'type' | 'content' | 'contentString' | 'style' | 'folderId' | 'isDynamic' | 'expiresAt'> & {
  /** The domain its link goes on; left out or null: the default redirect host. */
  domainId?: DomainId | null;
  /** A chosen (vanity) short code; left out or null: one is generated. */
  chosenShortCode?: string | null;
};
