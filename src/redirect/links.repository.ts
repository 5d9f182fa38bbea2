import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PrismaService } from '../infra/database/prisma.service';
import { QrType, redirectTargetProblem } from '../qrcodes/content';
import type { LinkTarget } from './link-target';

/**
 * The redirect host's one query. It is looked up by short code alone on purpose: the short code is
 * the public identifier printed in the image, and no account is involved in a scan.
 */
@Injectable()
export class LinksRepository {
  private readonly ownHosts: string[];

  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ownHosts = [new URL(config.redirectUrl).host, new URL(config.baseUrl).host];
  }

  async findByShortCode(shortCode: string): Promise<LinkTarget | null> {
    const code = await this.prisma.qrCode.findUnique({
      where: { shortCode },
      select: { id: true, type: true, contentString: true, content: true, status: true, expiresAt: true, isDynamic: true },
    });
    if (!code || !code.isDynamic) return null;
    return {
      codeId: code.id,
      type: code.type as QrType,
      contentString: code.contentString,
      content: code.content as Record<string, unknown>,
      status: code.status,
      expiresAt: code.expiresAt?.getTime() ?? null,
      safeLocation: code.type === 'url' && !redirectTargetProblem(code.contentString, this.ownHosts) ? code.contentString : null,
    };
  }
}
