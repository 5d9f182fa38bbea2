import type { ServedDomain } from '../domains';

/** Where the server's host dispatch leaves a request's domain for the redirect host's handlers (on the raw request). */
export const SERVED_DOMAIN = Symbol('servedDomain');

export type WithServedDomain = { [SERVED_DOMAIN]?: ServedDomain };

/** The domain a raw request was dispatched for; undefined: the default redirect host. */
export const servedDomainOf = (raw: object): ServedDomain | undefined => (raw as WithServedDomain)[SERVED_DOMAIN];
