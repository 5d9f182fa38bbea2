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

/** Where the server's host dispatch leaves a request's domain for the redirect host's handlers (on the raw request). */
export const SERVED_DOMAIN = Symbol('servedDomain');

export type WithServedDomain = { [SERVED_DOMAIN]?: ServedDomain };

/** The domain a raw request was dispatched for; undefined: the default redirect host. */
export const servedDomainOf = (raw: object): ServedDomain | undefined => (raw as WithServedDomain)[SERVED_DOMAIN];
