import { Inject, Injectable } from '@nestjs/common';
import type { DomainId, QrCodeId } from '../common/ids/resource-ids';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { normaliseRedirectTarget, type OwnHosts, redirectHostAliases } from '../common/web/redirect-target';
import type { QrType } from '../qrcodes/content';
import type { SettableStatus } from '../qrcodes/qr-code-status';
import { CompiledRules } from './settings/link-rules-evaluator';
import type { LinkRule, Utm } from './settings/link-settings';
import type { LinkPreviewSettings } from './settings/link-preview';
import type { LinkTarget } from './link-target';
import { steadyDecision } from './link-decision';

/**
 * The queries of links: a link is looked up by its host and short code, across accounts, on
 * purpose: they are the public identifier printed in the image, and no account is involved in a
 * scan. A limited code's scans are reserved here.
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
        'account_id',
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
        'preview',
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
      accountId: code.account_id,
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
      preview: code.preview as LinkPreviewSettings | null,
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
}
