import { ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, QrCodeId, ShareLinkId } from '../common/ids/resource-ids';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { FoldersService } from '../folders/folders.service';
import { AuditTrail } from '../infra/audit/audit-trail';
import { Database } from '../infra/database/database.service';
import { restrictedFolders } from '../infra/http/request-context';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { hashLinkPassword } from '../smart-links/settings/link-password';
import { TagsService } from '../tags/tags.service';
import type { CreateShareLinkDto, ShareLinkView } from './dto/share-link.dto';
import { type ShareLinkRecord, ShareLinksRepository, type ShareSubject } from './share-links.repository';
import { ShareTokens } from './share-tokens';
import { STATS_SECTIONS } from './stats-page/stats-sections';

/** Read-only stats pages of a code, a folder or a tag (docs/sharing.md#stats-pages): made, listed and revoked by key holders. */
@Injectable()
export class ShareLinksService {
  constructor(
    private readonly links: ShareLinksRepository,
    private readonly tokens: ShareTokens,
    private readonly codes: QrCodesService,
    private readonly folders: FoldersService,
    private readonly tags: TagsService,
    private readonly database: Database,
    private readonly audit: AuditTrail,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createForCode(accountId: AccountId, codeId: QrCodeId, body: CreateShareLinkDto, now = new Date()): Promise<ShareLinkView> {
    await this.codes.findOwned(accountId, codeId);
    return this.create(accountId, { qrCodeId: codeId }, body, now);
  }

  async createForFolder(accountId: AccountId, folderId: FolderId, body: CreateShareLinkDto, now = new Date()): Promise<ShareLinkView> {
    await this.folders.get(accountId, folderId);
    return this.create(accountId, { folderId }, body, now);
  }

  /**
   * A tag's page counts every code carrying it, in every folder: a folder-restricted key may not
   * make one (as it may not rename or delete a tag), though it lists and revokes those of the tags
   * on its codes.
   */
  async createForTag(accountId: AccountId, name: string, body: CreateShareLinkDto, now = new Date()): Promise<ShareLinkView> {
    const tag = await this.tags.visible(accountId, name);
    if (restrictedFolders(accountId))
      throw new ForbiddenException("This API key is limited to some folders: it cannot share a tag's statistics, which count codes in every folder");
    return this.create(accountId, { tagId: tag.id }, body, now);
  }

  async listForCode(accountId: AccountId, codeId: QrCodeId): Promise<ShareLinkView[]> {
    await this.codes.findOwned(accountId, codeId);
    return (await this.links.listOf(accountId, { qrCodeId: codeId })).map((link) => this.toView(link));
  }

  async listForFolder(accountId: AccountId, folderId: FolderId): Promise<ShareLinkView[]> {
    await this.folders.get(accountId, folderId);
    return (await this.links.listOf(accountId, { folderId })).map((link) => this.toView(link));
  }

  async listForTag(accountId: AccountId, name: string): Promise<ShareLinkView[]> {
    const tag = await this.tags.visible(accountId, name);
    return (await this.links.listOf(accountId, { tagId: tag.id })).map((link) => this.toView(link));
  }

  /** Revokes the link: its page answers 404 from the next request on, on every instance (links are read per request). */
  async revoke(accountId: AccountId, id: ShareLinkId, now = new Date()): Promise<void> {
    const link = await this.links.find(accountId, id);
    if (!link || !(await this.subjectVisible(accountId, link))) throw shareLinkNotFound();
    await this.database.transaction(async (tx) => {
      await this.links.revoke(tx, accountId, id, now);
      await this.audit.record(tx, {
        accountId,
        action: 'share_link.revoke',
        resourceType: 'share_link',
        resourceId: id,
        before: auditedFields(link),
      });
    });
  }

  private async create(accountId: AccountId, subject: ShareSubject, body: CreateShareLinkDto, now: Date): Promise<ShareLinkView> {
    const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
    if (expiresAt && expiresAt.getTime() <= now.getTime())
      throw new ValidationFailedException([{ field: 'expires_at', message: 'expires_at must be in the future' }]);
    const fields = body.fields ? STATS_SECTIONS.filter((section) => body.fields?.includes(section)) : [...STATS_SECTIONS];
    const passwordHash = body.password === undefined ? null : await hashLinkPassword(body.password);
    const id = randomUUID() as ShareLinkId;
    const link = await this.database.transaction(async (tx) => {
      const created = await this.links.create(tx, accountId, subject, { id, fields, passwordHash, expiresAt, createdAt: now });
      await this.audit.record(tx, {
        accountId,
        action: 'share_link.create',
        resourceType: 'share_link',
        resourceId: id,
        after: auditedFields(created),
        secretFields: ['password'],
      });
      return created;
    });
    return this.toView(link);
  }

  /** A folder-restricted key sees links of its folders' codes, of its folders, and of the tags on its codes only. */
  private async subjectVisible(accountId: AccountId, link: ShareLinkRecord): Promise<boolean> {
    if (!restrictedFolders(accountId)) return true;
    if (link.qrCodeId) return (await this.codes.ownedAmong(accountId, [link.qrCodeId])).size === 1;
    if (link.folderId) return (await this.folders.ownedAmong(accountId, [link.folderId])).size === 1;
    return link.tagId !== null && (await this.tags.isVisible(accountId, link.tagId));
  }

  toView(link: ShareLinkRecord): ShareLinkView {
    return {
      token_id: link.id,
      url: `${this.config.redirectUrl}/s/${this.tokens.sign(link.id)}`,
      qr_code_id: link.qrCodeId,
      folder_id: link.folderId,
      tag: link.tagName,
      fields: link.fields,
      has_password: link.passwordHash !== null,
      expires_at: link.expiresAt?.toISOString() ?? null,
      revoked_at: link.revokedAt?.toISOString() ?? null,
      created_at: link.createdAt.toISOString(),
    };
  }
}

function auditedFields(link: ShareLinkRecord) {
  return {
    qr_code_id: link.qrCodeId,
    folder_id: link.folderId,
    tag: link.tagName,
    fields: link.fields,
    password: link.passwordHash === null ? null : 'set',
    expires_at: link.expiresAt?.toISOString() ?? null,
  };
}

export const shareLinkNotFound = () => new NotFoundException('Share link not found');
