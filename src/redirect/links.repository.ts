import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type { DomainId } from '../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { normaliseRedirectTarget, type OwnHosts, type QrType, redirectHostAliases } from '../qrcodes/content';
import type { SettableStatus } from '../qrcodes/qr-code-status';
import { CompiledRules } from '../qrcodes/smart-links/link-rules-evaluator';
import type { LinkRule, Utm } from '../qrcodes/smart-links/link-settings';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { LinkTarget } from './link-target';
import { steadyDecision } from './link-decision';
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
      .select([
        'id',
        'type',
        'content_string',
        'content',
        'status',
        'expires_at',
        'is_dynamic',
        'link_rules',
        'max_scans',
        'fallback_url',
        'password_hash',
        'utm',
      ])
      .where('short_code', '=', shortCode)
      .where((eb) => (domainId ? eb('domain_id', '=', domainId) : eb('domain_id', 'is', null)))
      .executeTakeFirst();
    if (!code || !code.is_dynamic) return null;
    const target = code.type === 'url' ? normaliseRedirectTarget(code.content_string, this.ownHosts) : null;
    const fallback = code.fallback_url === null ? null : normaliseRedirectTarget(code.fallback_url, this.ownHosts);
    const rules = (code.link_rules as LinkRule[] | null) ?? [];
    const link: LinkTarget = {
      codeId: code.id,
      type: code.type as QrType,
      contentString: code.content_string,
      content: code.content as Record<string, unknown>,
      status: code.status as SettableStatus,
      expiresAt: code.expires_at?.getTime() ?? null,
      safeLocation: target?.ok ? target.href : null,
      // A rule URL is checked again as the link is loaded, as the code's own target is: the service's hosts may have changed.
      rules: rules.length ? new CompiledRules(rules, code.id, (url) => normaliseRedirectTarget(url, this.ownHosts).ok) : null,
      maxScans: code.max_scans,
      fallbackLocation: fallback?.ok ? fallback.href : null,
      passwordHash: code.password_hash,
      utm: code.utm as Utm | null,
      steady: null,
    };
    link.steady = steadyDecision(link);
    return link;
  }

  /**
   * Reserves one scan of a code limited to `maxScans`: true when it was below the limit (and now
   * counts one more), false when the limit is reached. One statement, atomic across instances.
   */
  async reserveScan(codeId: QrCodeId, maxScans: number): Promise<boolean> {
    const rows = await this.database.scans.query<{ reserved: number }>(
      `INSERT INTO qr_code_scan_reservations AS r (qr_code_id, reserved) VALUES ($1, 1)
       ON CONFLICT (qr_code_id) DO UPDATE SET reserved = r.reserved + 1 WHERE r.reserved < $2
       RETURNING r.reserved`,
      [codeId, maxScans],
    );
    return rows.length === 1 && rows[0].reserved <= maxScans;
  }

  /** Scans a limited code has reserved so far (the resolver's view of the limit: it reserves nothing). */
  async reservedScans(codeId: QrCodeId): Promise<number> {
    const row = await this.database.read.shared
      .selectFrom('qr_code_scan_reservations')
      .select('reserved')
      .where('qr_code_id', '=', codeId)
      .executeTakeFirst();
    return row?.reserved ?? 0;
  }

  /** A code's stored scan count (pending scans are the scan buffer's: see ScanCountReader). */
  async storedScans(codeId: QrCodeId): Promise<number> {
    const row = await this.database.read.anyAccount.selectFrom('qr_codes').select('scans').where('id', '=', codeId).executeTakeFirst();
    return row ? Number(row.scans) : 0;
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
