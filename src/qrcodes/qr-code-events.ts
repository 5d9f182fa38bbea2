import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ChangeEvents } from '../infra/events/change-events';
import type { QrCodeRecord } from './qr-code.record';

/** The fields a client can change; `updated` events name those that changed. */
export type QrCodeField =
  | 'name'
  | 'content'
  | 'style'
  | 'folder_id'
  | 'tags'
  | 'is_dynamic'
  | 'status'
  | 'expires_at'
  | 'rules'
  | 'max_scans'
  | 'fallback_url'
  | 'password'
  | 'utm'
  | 'scan_retention_days'
  | 'preview'
  | 'domain_id'
  | 'short_code';

/** An update that restores a version of the code's history: the version restored, and the one its update recorded (set by the history). */
export interface RestoreMark {
  from: number;
  recorded?: number;
}

/**
 * What happened to an account's codes, as one write of the API did it (`code`: the code after an
 * update, as it was before a delete; `before`: the code as the update found it, under its lock;
 * `bulk`: made by one bulk request).
 */
export type QrCodeChanged =
  | { kind: 'created'; accountId: AccountId; codes: QrCodeRecord[]; bulk: boolean }
  | {
      kind: 'updated';
      accountId: AccountId;
      codeId: QrCodeId;
      shortCode: string | null;
      changed: QrCodeField[];
      renderVersionChanged: boolean;
      before: QrCodeRecord;
      code: QrCodeRecord;
      /** the update restores a version of the code's history */
      restoring?: RestoreMark;
    }
  | { kind: 'deleted'; accountId: AccountId; codeId: QrCodeId; shortCode: string | null; code: QrCodeRecord };

/**
 * How the QR code module tells the rest of the app what changed, without knowing who listens:
 * modules that keep something derived from codes (cached images and their sources, cached short
 * links, search results) drop their own entries once a change committed; the webhook outbox, the
 * audit log and the destination history write in its transaction (ChangeEvents).
 */
@Injectable()
export class QrCodeEvents extends ChangeEvents<QrCodeChanged> {
  constructor() {
    super('QrCodeEvents', 'codes');
  }
}
