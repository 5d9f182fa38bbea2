import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../infra/database/database.service';
import { normaliseRedirectTarget, type OwnHosts, type QrType, redirectHostAliases } from '../qrcodes/content';
import type { SettableStatus } from '../qrcodes/qr-code-status';
import type { LinkTarget } from './link-target';

/**
 * The redirect host's one query. It is looked up by short code alone, across accounts, on purpose:
 * the short code is the public identifier printed in the image, and no account is involved in a
 * scan.
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

  async findByShortCode(shortCode: string): Promise<LinkTarget | null> {
    const code = await this.database.read.anyAccount
      .selectFrom('qr_codes')
      .select(['id', 'type', 'content_string', 'content', 'status', 'expires_at', 'is_dynamic'])
      .where('short_code', '=', shortCode)
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
}
