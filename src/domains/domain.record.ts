import type { AccountId } from '../common/ids/account-id';
import type { DomainId } from '../common/ids/resource-ids';
import type { AppLinks } from './app-links';

/** pending: added, not yet proven by DNS; verified: proven (and re-checked daily); failing: verified, its record missing for 7 days, still served. */
export const DOMAIN_STATUSES = ['pending', 'verified', 'failing'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** A branded domain as the service works with it (one row of domains). */
export interface DomainRecord {
  id: DomainId;
  accountId: AccountId;
  hostname: string;
  status: DomainStatus;
  verificationToken: string;
  rootRedirectUrl: string | null;
  notFoundUrl: string | null;
  appLinks: AppLinks | null;
  verifiedAt: Date | null;
  checkedAt: Date | null;
  checkFailingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Whether the redirect host serves the domain's codes (a failing domain keeps serving). */
export const isServed = (status: DomainStatus): boolean => status !== 'pending';

/** The DNS record that proves a domain: a TXT record under this name holding the token. */
export const verificationName = (hostname: string): string => `_qr-verify.${hostname}`;
