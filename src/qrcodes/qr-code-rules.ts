import type { FieldError } from '../common/validation/field-error';
import { buildQrMatrix, QrCapacityError } from '../rendering/qr-matrix';
import { checkStyle, type QrStyle, resolveErrorCorrectionLevel } from '../rendering/style';
import { checkContent, mergeContent, type OwnHosts } from './content';
import type { CreateQrCodeDto } from './dto/create-qr-code.dto';
import type { UpdateQrCodeDto } from './dto/update-qr-code.dto';
import { NO_LINK_FIELDS, type NewQrCode, type QrCodeRecord } from './qr-code.record';
import { checkLinkFields, type CheckedLinkFields } from '../smart-links/settings/check-link-settings';
import type { QrCodeChanges } from './qr-codes.repository';
import type { RestoreMark } from './qr-code-events';
import { vanityShortCodeProblem } from './short-code';
import { checkTagList } from '../tags/tag-names';

/**
 * The rules of a QR code that need no database: content per type, style, capacity, the
 * static/dynamic moves and the lifecycle (docs/statuses-and-lifecycle.md). Pure, shared by single create,
 * bulk create and update.
 */

export type RuleCheck<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

export interface RuleContext {
  /** Hosts of the service itself: a url target there would loop. */
  ownHosts: OwnHosts;
  now: Date;
}

/** Byte-mode capacity at version 40: text within it always fits, so the matrix is built only beyond. */
const BYTE_CAPACITY = { L: 2953, M: 2331, Q: 1663, H: 1273 } as const;

/** Why a static code's content cannot be drawn, or null when it fits. */
export function capacityProblem(contentString: string, style: QrStyle): FieldError | null {
  const level = resolveErrorCorrectionLevel(style);
  if (Buffer.byteLength(contentString) <= BYTE_CAPACITY[level]) return null;
  try {
    buildQrMatrix(contentString, level);
    return null;
  } catch (error) {
    if (!(error instanceof QrCapacityError)) throw error;
    return {
      field: 'content',
      message:
        `content is too large for a QR code at error correction ${level} (${Buffer.byteLength(contentString)} bytes encoded); ` +
        'shorten it, lower style.qrOptions.errorCorrectionLevel, or make the code dynamic',
    };
  }
}

function expiryProblem(expiresAt: Date | null, isDynamic: boolean, now: Date): FieldError | null {
  if (!expiresAt) return null;
  if (!isDynamic) return { field: 'expires_at', message: 'expires_at applies to dynamic codes only' };
  if (expiresAt.getTime() <= now.getTime()) return { field: 'expires_at', message: 'expires_at must be in the future' };
  return null;
}

export function checkNewQrCode(dto: CreateQrCodeDto, context: RuleContext): RuleCheck<NewQrCode> {
  const errors: FieldError[] = [];
  const content = checkContent(dto.type, dto.content, { ownHosts: context.ownHosts });
  if (!content.ok) errors.push(...content.errors);
  const style = checkStyle(dto.style ?? {});
  if (!style.ok) errors.push(...style.errors);
  const isDynamic = dto.is_dynamic ?? false;
  const expiresAt = dto.expires_at ? new Date(dto.expires_at) : null;
  const expiry = expiryProblem(expiresAt, isDynamic, context.now);
  if (expiry) errors.push(expiry);
  errors.push(...linkPlacementProblems(dto, isDynamic));
  const link = checkLinkFields(dto, { ownHosts: context.ownHosts, isUrlType: dto.type === 'url', isDynamic });
  if (!link.ok) errors.push(...link.errors);
  const tags = dto.tags === undefined ? null : checkTagList(dto.tags);
  if (tags && !tags.ok) errors.push(...tags.errors);
  if (!content.ok || !style.ok || !link.ok || errors.length) return { ok: false, errors };

  // A dynamic code's image encodes its short link, so only static content must fit.
  const capacity = isDynamic ? null : capacityProblem(content.contentString, style.style);
  if (capacity) return { ok: false, errors: [capacity] };
  return {
    ok: true,
    value: {
      name: dto.name ?? `${dto.type} QR Code`,
      type: dto.type,
      content: content.content,
      contentString: content.contentString,
      style: style.style as Record<string, unknown>,
      folderId: dto.folder_id ?? null,
      isDynamic,
      expiresAt,
      ...NO_LINK_FIELDS,
      ...link.value,
      domainId: dto.domain_id ?? null,
      chosenShortCode: dto.short_code ?? null,
      tags: tags?.ok ? tags.tags : [],
    },
  };
}

/** domain_id and short_code place a dynamic code's link; on a static code there is none. */
function linkPlacementProblems(dto: { domain_id?: unknown; short_code?: string }, isDynamic: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (dto.domain_id && !isDynamic) errors.push({ field: 'domain_id', message: 'domain_id applies to dynamic codes only' });
  if (dto.short_code !== undefined) {
    if (!isDynamic) errors.push({ field: 'short_code', message: 'short_code applies to dynamic codes only' });
    else {
      const problem = vanityShortCodeProblem(dto.short_code);
      if (problem) errors.push({ field: 'short_code', message: problem });
    }
  }
  return errors;
}

export type PlannedUpdate = Omit<QrCodeChanges, 'upgradeWithShortCode' | 'passwordHash'> &
  Omit<CheckedLinkFields, 'password'> & {
    upgradeToDynamic: boolean;
    chosenShortCode: string | null;
    /** the new password as sent (the service hashes it), null to remove it, undefined: unchanged */
    password?: string | null;
  };

export interface UpdateOptions {
  /** `content_merge=true`: the sent content is laid over the stored one (mergeContent) instead of replacing it. */
  mergeContent: boolean;
  /** A restore of the code's history sets its password back as the hash that version kept (never a request's). */
  restoredPasswordHash?: string | null;
  /** The update restores a version of the code's history (carried on its event to the history). */
  restoring?: RestoreMark;
}

export function checkQrCodeUpdate(
  current: QrCodeRecord,
  dto: UpdateQrCodeDto,
  context: RuleContext,
  options: UpdateOptions = { mergeContent: false },
): RuleCheck<PlannedUpdate> {
  const errors: FieldError[] = [];
  if (dto.type !== undefined && dto.type !== current.type) {
    errors.push({ field: 'type', message: `type cannot be changed (this code is ${current.type})` });
  }
  if (dto.is_dynamic === false && current.isDynamic) {
    errors.push({ field: 'is_dynamic', message: 'a dynamic code cannot become static: its short link stays active' });
  }
  const upgradeToDynamic = dto.is_dynamic === true && !current.isDynamic;
  const willBeDynamic = current.isDynamic || upgradeToDynamic;
  if (dto.status !== undefined && !willBeDynamic) {
    errors.push({
      field: 'status',
      message: 'status applies to dynamic codes only (a static code has no link to pause); send is_dynamic: true to upgrade it',
    });
  }

  // A merged content is checked whole, as a replacing one is: the result must be valid content of the type.
  const sentContent = dto.content !== undefined && options.mergeContent ? mergeContent(current.content, dto.content) : dto.content;
  const content = sentContent === undefined ? null : checkContent(current.type, sentContent, { ownHosts: context.ownHosts });
  if (content && !content.ok) errors.push(...content.errors);
  const style = dto.style === undefined ? null : checkStyle(dto.style);
  if (style && !style.ok) errors.push(...style.errors);
  const expiresAt = dto.expires_at === undefined ? undefined : dto.expires_at === null ? null : new Date(dto.expires_at);
  const expiry = expiresAt === undefined ? null : expiryProblem(expiresAt, willBeDynamic, context.now);
  if (expiry) errors.push(expiry);
  errors.push(...linkPlacementProblems(dto, willBeDynamic));
  if (dto.short_code !== undefined && willBeDynamic && !upgradeToDynamic) {
    errors.push({ field: 'short_code', message: 'short_code can be chosen only at creation or on the upgrade to dynamic (is_dynamic: true)' });
  }
  const link = checkLinkFields(dto, { ownHosts: context.ownHosts, isUrlType: current.type === 'url', isDynamic: willBeDynamic });
  if (!link.ok) errors.push(...link.errors);
  const tags = dto.tags === undefined ? null : checkTagList(dto.tags);
  if (tags && !tags.ok) errors.push(...tags.errors);
  if (errors.length || (content && !content.ok) || (style && !style.ok) || !link.ok) return { ok: false, errors };

  const domainChanges = dto.domain_id !== undefined && dto.domain_id !== current.domainId;
  const nextContentString = content?.ok ? content.contentString : current.contentString;
  const nextStyle = (style?.ok ? style.style : current.style) as QrStyle;
  if (!willBeDynamic && (content || style)) {
    const capacity = capacityProblem(nextContentString, nextStyle);
    if (capacity) return { ok: false, errors: [capacity] };
  }
  return {
    ok: true,
    value: {
      name: dto.name,
      content: content?.ok ? content.content : undefined,
      contentString: content?.ok ? content.contentString : undefined,
      style: style?.ok ? (style.style as Record<string, unknown>) : undefined,
      folderId: dto.folder_id,
      tags: tags?.ok ? tags.tags : undefined,
      status: dto.status,
      expiresAt,
      domainId: dto.domain_id,
      // A new domain changes the URL the image encodes, as content, style and the upgrade change the image.
      bumpRenderVersion: content !== null || style !== null || upgradeToDynamic || domainChanges,
      upgradeToDynamic,
      ...link.value,
      chosenShortCode: dto.short_code ?? null,
    },
  };
}
