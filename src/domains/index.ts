/**
 * The public entry of branded domains for the modules above (src/module-dependencies.spec.ts):
 * the redirect host reaches them only through this file.
 */
export { DomainsModule } from './domains.module';
export { DomainEvents, type DomainChanged } from './domain-events';
export { DomainHosts } from './domain-hosts.service';
export type { ServedDomain } from './served-domain';
export { hostnameOfHeader, hostnameOfOrigin } from './hostname';
