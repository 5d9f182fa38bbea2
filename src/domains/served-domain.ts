import type { DomainId } from '../common/ids/resource-ids';

/** A request's Host that is a branded domain, as the redirect host answers on it. */
export interface ServedDomain {
  id: DomainId;
  hostname: string;
  /** verified or failing: its codes are served; pending: the host is known, nothing on it is. */
  served: boolean;
  rootRedirectUrl: string | null;
  notFoundUrl: string | null;
}
