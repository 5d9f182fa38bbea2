import { Injectable } from '@nestjs/common';
import { PrismaService } from '../infra/database/prisma.service';
import type { QrType } from '../qrcodes/content';
import type { LinkTarget } from './link-target';

/**
 * The redirect host's one query. It is looked up by short code alone on purpose: the short code is
 * the public identifier printed in the image, and no account is involved in a scan.
 */
@Injectable()
export class LinksRepository {
  constructor(private readonly prisma: PrismaService) {}

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
    };
  }
}
