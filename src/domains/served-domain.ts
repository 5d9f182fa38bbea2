import type { AccountId } from '../common/ids/account-id';
import type { DomainId } from '../common/ids/resource-ids';

/** A request's Host that is a branded domain, as the redirect host answers on it. */
export interface ServedDomain {
  id: DomainId;
  hostname: string;
  /** The account holding it (for a pending name, one of the accounts that added it). */
  accountId: AccountId;
  /** verified or failing: its codes are served; pending: the host is known, nothing on it is. */
  served: boolean;
  rootRedirectUrl: string | null;
  notFoundUrl: string | null;
}
