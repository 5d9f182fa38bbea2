import type { DomainId, FolderId, QrCodeId } from '../common/ids/resource-ids';
import type { QrType } from './content';
import type { SettableStatus } from './qr-code-status';
import type { LinkRule, Utm } from '../smart-links/settings/link-settings';
import type { LinkPreviewSettings } from '../smart-links/settings/link-preview';

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
  /** smart-link rules, in order (docs/smart-links.md); empty: none */
  rules: LinkRule[];
  maxScans: number | null;
  fallbackUrl: string | null;
  /** argon2id hash of the link's password, or null (never shown: `has_password`) */
  passwordHash: string | null;
  utm: Utm | null;
  /** Its scans are kept this many days (null: the deployment's SCAN_RETENTION_DAYS); docs/scans-and-privacy.md#retention */
  scanRetentionDays: number | null;
  /** What chat apps' cards show for its short link (docs/sharing.md#link-previews), or null */
  preview: LinkPreviewSettings | null;
  /** Display prefix of the key that created it (null: none, or made before it was kept): its history's version 1. */
  createdKeyPrefix: string | null;
  /** Its tags' names, in the order given (docs/tags-and-bulk-edits.md); stored as tag ids. */
  tags: string[];
}

/** The smart-link fields a client sets (the password as sent: the service stores only its hash). */
export type LinkFields = Pick<QrCodeRecord, 'rules' | 'maxScans' | 'fallbackUrl' | 'utm' | 'scanRetentionDays' | 'preview'> & {
  password: string | null;
};

/** A validated new code, ready to insert (the database assigns the rest). */
export type NewQrCode = Pick<
  QrCodeRecord,
  'name' | 'type' | 'content' | 'contentString' | 'style' | 'folderId' | 'isDynamic' | 'expiresAt' | 'tags'
> &
  LinkFields & {
    /** The domain its link goes on; left out or null: the default redirect host. */
    domainId?: DomainId | null;
    /** A chosen (vanity) short code; left out or null: one is generated. */
    chosenShortCode?: string | null;
  };

/** A new code as the repository stores it: its short code drawn, its password (if any) hashed. */
export type StoredNewQrCode = Omit<NewQrCode, 'password'> & { shortCode: string | null; passwordHash: string | null };

/** A new code's smart-link fields when the request sets none. */
export const NO_LINK_FIELDS: LinkFields = {
  rules: [],
  maxScans: null,
  fallbackUrl: null,
  utm: null,
  scanRetentionDays: null,
  preview: null,
  password: null,
};

/** The same, as stored. */
export const NO_STORED_LINK_FIELDS: Omit<LinkFields, 'password'> & { passwordHash: null } = {
  rules: [],
  maxScans: null,
  fallbackUrl: null,
  utm: null,
  scanRetentionDays: null,
  preview: null,
  passwordHash: null,
};
