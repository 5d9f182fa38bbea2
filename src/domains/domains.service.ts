import { ConflictException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { DomainId } from '../common/ids/resource-ids';
import { randomBase62 } from '../common/random/base62';
import { CLOCK, type Clock } from '../common/time/clock';
import type { FieldError } from '../common/validation/field-error';
import { FieldConflictException } from '../common/validation/field-conflict.exception';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { normaliseRedirectTarget, redirectHostAliases } from '../common/web/redirect-target';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { isUniqueViolation } from '../infra/database/refused-data';
import { restrictedFolders } from '../infra/http/request-context';
import { type DomainChanged, DomainEvents } from './domain-events';
import { type DomainRecord, verificationName } from './domain.record';
import { DomainsRepository } from './domains.repository';
import { DnsTxtLookup, type TxtAnswer } from './dns-txt-lookup';
import type { DomainView, UpdateDomainDto } from './dto/domain.dto';
import { hostnameOfOrigin, normaliseHostname } from './hostname';
import type { AppLinks } from './app-links';

/** The error of a code placed on a domain that is not one of its account's verified domains. */
export const NOT_YOUR_DOMAIN: FieldError = { field: 'domain_id', message: 'domain_id does not name one of your verified domains' };

const TOKEN_PREFIX = 'qr-verify=';
/** Short codes given to codes moved off a deleted domain when theirs is taken on the default host. */
const MOVED_SHORT_CODE_LENGTH = 8;

/** The app links as stored: only the fields the API defines, in its names (undefined: unchanged). */
function appLinksOf(dto: UpdateDomainDto['app_links']): AppLinks | null | undefined {
  if (dto === undefined || dto === null) return dto;
  return {
    ...(dto.apple && { apple: { app_ids: dto.apple.app_ids, ...(dto.apple.paths && { paths: dto.apple.paths }) } }),
    ...(dto.android && { android: { package_name: dto.android.package_name, sha256_cert_fingerprints: dto.android.sha256_cert_fingerprints } }),
  };
}

export function toDomainView(domain: DomainRecord): DomainView {
  return {
    id: domain.id,
    hostname: domain.hostname,
    status: domain.status,
    verification: { type: 'TXT', name: verificationName(domain.hostname), value: domain.verificationToken },
    root_redirect_url: domain.rootRedirectUrl,
    not_found_url: domain.notFoundUrl,
    app_links: domain.appLinks,
    created_at: domain.createdAt.toISOString(),
    verified_at: domain.verifiedAt?.toISOString() ?? null,
  };
}

const audited = (domain: DomainRecord) => ({
  hostname: domain.hostname,
  status: domain.status,
  root_redirect_url: domain.rootRedirectUrl,
  not_found_url: domain.notFoundUrl,
  app_links: domain.appLinks,
});

/**
 * Branded domains (docs/domains-and-tls.md): added by hostname, proven by a TXT record, then
 * serving the account's codes placed on them. Writes record an audit entry in their transaction and
 * publish DomainEvents.
 */
@Injectable()
export class DomainsService {
  private readonly ownHostnames: string[];
  private readonly ownHosts: ReturnType<typeof redirectHostAliases>;

  constructor(
    private readonly domains: DomainsRepository,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    private readonly events: DomainEvents,
    private readonly dns: DnsTxtLookup,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHostnames = [config.baseUrl, config.redirectUrl].flatMap((origin) => hostnameOfOrigin(origin) ?? []);
    this.ownHosts = redirectHostAliases([config.redirectUrl, config.baseUrl]);
  }

  async create(accountId: AccountId, input: string): Promise<DomainView> {
    if (restrictedFolders(accountId)) throw new ForbiddenException('This API key is limited to some folders: it cannot add domains');
    const check = normaliseHostname(input, this.ownHostnames);
    if (!check.ok) throw new ValidationFailedException([{ field: 'hostname', message: `hostname ${check.problem}` }]);
    const holder = await this.domains.servedHolder(check.hostname);
    if (holder && holder !== accountId) throw hostnameTaken('is verified by another account');
    try {
      const created = await this.database.transaction(async (tx) => {
        const domain = await this.domains.insert(tx, accountId, check.hostname, `${TOKEN_PREFIX}${randomBase62(32)}`);
        await this.audit.record(tx, { accountId, action: 'domain.create', resourceType: 'domain', resourceId: domain.id, after: audited(domain) });
        return domain;
      });
      return toDomainView(created);
    } catch (error) {
      if (isUniqueViolation(error)) throw hostnameTaken('is already one of your domains');
      throw error;
    }
  }

  async list(accountId: AccountId): Promise<DomainView[]> {
    return (await this.domains.list(accountId)).map(toDomainView);
  }

  async get(accountId: AccountId, id: DomainId): Promise<DomainView> {
    return toDomainView(await this.findOwned(accountId, id));
  }

  async update(accountId: AccountId, id: DomainId, dto: UpdateDomainDto): Promise<DomainView> {
    const current = await this.findOwned(accountId, id);
    // A redirect to the domain itself would loop, as one to the service's own hosts would.
    const ownHosts = [...this.ownHosts, { host: current.hostname, port: null }];
    const errors: FieldError[] = [];
    const urlOf = (field: 'root_redirect_url' | 'not_found_url'): string | null | undefined => {
      const value = dto[field];
      if (value === undefined || value === null) return value;
      const target = normaliseRedirectTarget(value, ownHosts);
      if (target.ok) return target.href;
      errors.push({ field, message: `${field} ${target.problem}` });
      return undefined;
    };
    if (dto.app_links && !dto.app_links.apple && !dto.app_links.android)
      errors.push({ field: 'app_links', message: 'app_links must name apple, android or both (null removes them)' });
    const urls = { rootRedirectUrl: urlOf('root_redirect_url'), notFoundUrl: urlOf('not_found_url'), appLinks: appLinksOf(dto.app_links) };
    if (errors.length) throw new ValidationFailedException(errors);
    const change = await this.database.transaction(async (tx) => {
      const before = await this.domains.lockForUpdate(tx, accountId, id);
      if (!before) throw domainNotFound();
      const after = (await this.domains.setSettings(tx, accountId, id, urls))!;
      await this.audit.record(tx, {
        accountId,
        action: 'domain.update',
        resourceType: 'domain',
        resourceId: id,
        before: audited(before),
        after: audited(after),
      });
      return { kind: 'updated', accountId, domain: after } as const;
    });
    await this.events.publishCommitted(change);
    return toDomainView(change.domain);
  }

  /**
   * Deletes the domain. While codes use it, refused (409) unless `force`: then they are moved to
   * the default redirect host first, in the same transaction, keeping their short codes unless one
   * is taken there (then each gets a new one).
   */
  async delete(accountId: AccountId, id: DomainId, force: boolean): Promise<void> {
    const attempt = (newShortCode?: () => string) =>
      this.database.transaction(async (tx) => {
        const domain = await this.domains.lockForUpdate(tx, accountId, id);
        if (!domain) throw domainNotFound();
        const inUse = await this.domains.codeCount(tx, accountId, id);
        if (inUse > 0 && !force) {
          throw new ConflictException(
            `${inUse} QR code(s) use this domain: move them first, or delete with ?force=true to move them back to the ` +
              'default redirect host (their printed URL changes)',
          );
        }
        const moved = inUse > 0 ? await this.domains.moveCodesToDefaultHost(tx, accountId, id, newShortCode) : [];
        await this.domains.delete(tx, accountId, id);
        await this.audit.record(tx, {
          accountId,
          action: 'domain.delete',
          resourceType: 'domain',
          resourceId: id,
          before: { ...audited(domain), moved_qrcode_ids: moved.map((code) => code.id) },
        });
        const change: DomainChanged = { kind: 'deleted', accountId, domain, moved };
        await this.events.recordInTransaction(tx, change);
        return change;
      });
    let change: DomainChanged;
    try {
      change = await attempt();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      change = await attempt(() => randomBase62(MOVED_SHORT_CODE_LENGTH));
    }
    await this.events.publishCommitted(change);
  }

  /** Looks the TXT record up now: verified when it holds the token, else 400 saying what was found. */
  async verify(accountId: AccountId, id: DomainId): Promise<DomainView> {
    const domain = await this.findOwned(accountId, id);
    const answer = await this.dns.txt(verificationName(domain.hostname));
    const problem = verificationProblem(domain, answer);
    if (problem) throw new ValidationFailedException([{ field: 'verification', message: problem }]);
    const holder = await this.domains.servedHolder(domain.hostname);
    if (holder && holder !== accountId) throw hostnameTaken('is verified by another account');
    const change = await this.markVerified(domain);
    if (change) await this.events.publishCommitted(change);
    return toDomainView(change?.domain ?? (await this.findOwned(accountId, id)));
  }

  /** Marks a domain verified; a domain that was not (pending, failing) gets a `verified` event. */
  async markVerified(domain: DomainRecord): Promise<DomainChanged | null> {
    const { accountId } = domain;
    try {
      return await this.database.transaction(async (tx) => {
        const before = await this.domains.lockForUpdate(tx, accountId, domain.id);
        if (!before) throw domainNotFound();
        const after = await this.domains.markVerified(tx, accountId, domain.id, this.clock.now());
        if (before.status === 'verified') return null;
        await this.audit.record(tx, {
          accountId,
          action: 'domain.verify',
          resourceType: 'domain',
          resourceId: domain.id,
          before: { status: before.status },
          after: { status: after.status },
        });
        const change: DomainChanged = { kind: 'verified', accountId, domain: after };
        await this.events.recordInTransaction(tx, change);
        return change;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw hostnameTaken('is verified by another account');
      throw error;
    }
  }

  /** The account's verified domains among ids, with their hostnames (codes may be placed only on those). */
  verifiedAmong(accountId: AccountId, ids: DomainId[]): Promise<Map<DomainId, string>> {
    return this.domains.verifiedAmong(accountId, ids);
  }

  private async findOwned(accountId: AccountId, id: DomainId): Promise<DomainRecord> {
    const domain = await this.domains.find(accountId, id);
    if (!domain) throw domainNotFound();
    return domain;
  }
}

/** Why the TXT answer does not prove the domain, naming what was found; null when it does. */
export function verificationProblem(domain: Pick<DomainRecord, 'hostname' | 'verificationToken'>, answer: TxtAnswer): string | null {
  const name = verificationName(domain.hostname);
  switch (answer.kind) {
    case 'failed':
      return `the TXT record at ${name} could not be looked up (${answer.reason}); try again shortly`;
    case 'none':
      return `no TXT record found at ${name}; create one holding ${domain.verificationToken}`;
    case 'found': {
      if (answer.values.includes(domain.verificationToken)) return null;
      const shown = answer.values
        .slice(0, 5)
        .map((value) => JSON.stringify(value.slice(0, 100)))
        .join(', ');
      return `the TXT record(s) at ${name} hold ${shown}${answer.values.length > 5 ? ', …' : ''}, not ${domain.verificationToken}`;
    }
  }
}

const domainNotFound = () => new NotFoundException('Domain not found');
const hostnameTaken = (why: string) => new FieldConflictException([{ field: 'hostname', message: `hostname ${why}` }]);
