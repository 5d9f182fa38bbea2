import { Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { ChangeEvents } from '../infra/events/change-events';
import type { DomainRecord } from './domain.record';

/** A code moved off a deleted domain back to the default redirect host (its short code as it is now). */
export interface MovedCode {
  id: QrCodeId;
  shortCode: string;
}

/**
 * What happened to an account's domains: `verified` (proven now, or back from failing), `failing`
 * (its record missing for 7 days), `updated` (its redirect URLs), `deleted` (with the codes moved
 * off it).
 */
export type DomainChanged =
  | { kind: 'verified' | 'failing' | 'updated'; accountId: AccountId; domain: DomainRecord }
  | { kind: 'deleted'; accountId: AccountId; domain: DomainRecord; moved: MovedCode[] };

/**
 * How the domains module tells the modules above it what changed (as QrCodeEvents does for codes):
 * the webhook outbox writes `domain.verified` and `domain.failing` in the change's transaction; the
 * redirect host drops the hostname's cached answer, and the image module the sources of moved
 * codes, once it committed.
 */
@Injectable()
export class DomainEvents extends ChangeEvents<DomainChanged> {
  constructor() {
    super('DomainEvents', 'domains');
  }
}
