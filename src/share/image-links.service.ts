import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { ImageLinkId, QrCodeId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { restrictedFolders } from '../infra/http/request-context';
import { dynamicUrl } from '../qrcodes/qr-code.representation';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import { capacityProblem } from '../qrcodes/qr-code-rules';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { checkStyle } from '../rendering/style';
import { overlayStyle } from '../rendering/style/overlay-style';
import { type CreateImageLinkDto, DEFAULT_IMAGE_LINK_SIZE, type ImageLinkView } from './dto/image-link.dto';
import { type ImageLinkRecord, ImageLinksRepository } from './image-links.repository';
import { signToken } from './signed-token';

/** What an image link's token is signed for: an image token is never a stats token. */
export const IMAGE_LINK_PURPOSE = 'image-link';

/** Public image URLs of codes (docs/sharing.md#image-links), made, listed and revoked by key holders. */
@Injectable()
export class ImageLinksService {
  constructor(
    private readonly links: ImageLinksRepository,
    private readonly codes: QrCodesService,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(accountId: AccountId, codeId: QrCodeId, body: CreateImageLinkDto, now = new Date()): Promise<ImageLinkView> {
    const code = await this.codes.findOwned(accountId, codeId);
    const errors = [...expiryProblems(body.expires_at, now), ...this.styleProblems(code, body.style)];
    if (errors.length > 0) throw new ValidationFailedException(errors);
    const link = {
      id: randomUUID() as ImageLinkId,
      qrCodeId: codeId,
      size: body.size ?? DEFAULT_IMAGE_LINK_SIZE,
      format: body.format ?? 'svg',
      styleOverrides: body.style ?? null,
      expiresAt: body.expires_at === undefined ? null : new Date(body.expires_at),
      createdAt: now,
    };
    const { created, secret } = await this.database.transaction(async (tx) => {
      const signingSecret = await this.links.secretOf(tx, accountId);
      const record = await this.links.create(tx, accountId, link);
      await this.audit.record(tx, {
        accountId,
        action: 'image_link.create',
        resourceType: 'image_link',
        resourceId: link.id,
        after: auditedFields(record),
      });
      return { created: record, secret: signingSecret };
    });
    return this.toView(created, secret);
  }

  async list(accountId: AccountId, codeId: QrCodeId): Promise<ImageLinkView[]> {
    await this.codes.findOwned(accountId, codeId);
    const links = await this.links.listOf(accountId, codeId);
    if (links.length === 0) return [];
    const secret = await this.database.transaction((tx) => this.links.secretOf(tx, accountId));
    return links.map((link) => this.toView(link, secret));
  }

  async revoke(accountId: AccountId, id: ImageLinkId, now = new Date()): Promise<void> {
    const link = await this.links.find(accountId, id);
    if (!link || !(await this.codeVisible(accountId, link.qrCodeId))) throw imageLinkNotFound();
    await this.database.transaction(async (tx) => {
      await this.links.revoke(tx, accountId, id, now);
      await this.audit.record(tx, {
        accountId,
        action: 'image_link.revoke',
        resourceType: 'image_link',
        resourceId: id,
        before: auditedFields(link),
      });
    });
  }

  /** A new signing secret: every image link of the account answers 410 from now on. */
  async rotateSecret(accountId: AccountId, now = new Date()): Promise<number> {
    return this.database.transaction(async (tx) => {
      const revoked = await this.links.rotate(tx, accountId, now);
      await this.audit.record(tx, {
        accountId,
        action: 'image_link.rotate_secret',
        resourceType: 'image_link',
        resourceId: null,
        after: { revoked },
      });
      return revoked;
    });
  }

  private styleProblems(code: QrCodeRecord, overrides: Record<string, unknown> | undefined): FieldError[] {
    if (overrides === undefined) return [];
    const check = checkStyle(overlayStyle(code.style, overrides));
    if (!check.ok) return check.errors;
    const problem = capacityProblem(this.encodedText(code), check.style);
    return problem ? [{ field: 'style', message: problem.message }] : [];
  }

  private encodedText(code: QrCodeRecord): string {
    return code.isDynamic && code.shortCode ? dynamicUrl(this.codes.origins, code.shortCode, code.domainHostname) : code.contentString;
  }

  private async codeVisible(accountId: AccountId, codeId: QrCodeId): Promise<boolean> {
    return !restrictedFolders(accountId) || (await this.codes.ownedAmong(accountId, [codeId])).size === 1;
  }

  private toView(link: ImageLinkRecord, secret: Buffer): ImageLinkView {
    return {
      id: link.id,
      url: `${this.config.redirectUrl}/i/${signToken(link.id, secret, IMAGE_LINK_PURPOSE)}`,
      qr_code_id: link.qrCodeId,
      size: link.size,
      format: link.format,
      style: link.styleOverrides,
      expires_at: link.expiresAt?.toISOString() ?? null,
      revoked_at: link.revokedAt?.toISOString() ?? null,
      created_at: link.createdAt.toISOString(),
    };
  }
}

function expiryProblems(expiresAt: string | undefined, now: Date): FieldError[] {
  if (expiresAt === undefined || new Date(expiresAt).getTime() > now.getTime()) return [];
  return [{ field: 'expires_at', message: 'expires_at must be in the future' }];
}

function auditedFields(link: ImageLinkRecord) {
  return {
    qr_code_id: link.qrCodeId,
    size: link.size,
    format: link.format,
    style: link.styleOverrides,
    expires_at: link.expiresAt?.toISOString() ?? null,
  };
}

export const imageLinkNotFound = () => new NotFoundException('Image link not found');
