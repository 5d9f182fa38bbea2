import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { DomainId } from '../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { normaliseRedirectTarget, type OwnHosts, type QrType, redirectHostAliases } from '../qrcodes/content';
import type { SettableStatus } from '../qrcodes/qr-code-status';
import type { LinkTarget } from './link-target';
import type { ServedDomain } from './served-domain';

/**
 * The redirect host's queries. A link is looked up by its host and short code, across accounts, on
 * purpose: they are the public identifier printed in the image, and no account is involved in a
 * scan. A domain is looked up by the hostname a request names.
 */
@Injectable()
export class LinksRepository {
  private readonly ownHosts: OwnHosts;

  constructor(
    private readonly database: Database,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHosts = redirectHostAliases([config.redirectUrl, config.baseUrl]);
  }

  /** The code of `shortCode` on a domain, or on the default redirect host (domainId null). */
  async findByShortCode(shortCode: string, domainId: DomainId | null = null): Promise<LinkTarget | null> {
    const code = await this.database.read.anyAccount
      .selectFrom('qr_codes')
      .select(['id', 'type', 'content_string', 'content', 'status', 'expires_at', 'is_dynamic'])
      .where('short_code', '=', shortCode)
      .where((eb) => (domainId ? eb('domain_id', '=', domainId) : eb('domain_id', 'is', null)))
      .executeTakeFirst();
    if (!code || !code.is_dynamic) return null;
    const target = code.type === 'url' ? normaliseRedirectTarget(code.content_string, this.ownHosts) : null;
    return {
      codeId: code.id,
      type: code.type as QrType,
      contentString: code.content_string,
      content: code.content as Record<string, unknown>,
      status: code.status as SettableStatus,
      expiresAt: code.expires_at?.getTime() ?? null,
      safeLocation: target?.ok ? target.href : null,
    };
  }

  /** The domain a Host names: its served holder (verified or failing), else a pending one, else null. */
  async findDomain(hostname: string): Promise<ServedDomain | null> {
    const row = await this.database.read.anyAccount
      .selectFrom('domains')
      .select(['id', 'hostname', 'status', 'root_redirect_url', 'not_found_url'])
      .where('hostname', '=', hostname)
      .orderBy(sql`status = 'pending'`)
      .limit(1)
      .executeTakeFirst();
    if (!row) return null;
    const served = row.status !== 'pending';
    return {
      id: row.id,
      hostname: row.hostname,
      served,
      rootRedirectUrl: served ? row.root_redirect_url : null,
      notFoundUrl: served ? row.not_found_url : null,
    };
  }
}
