import { effectiveStatus } from './qr-code-status';
import type { QrCodeRecord } from './qr-code.record';

/** Public origins the links of a code are built on (BASE_URL, REDIRECT_URL). */
export interface QrLinkOrigins {
  baseUrl: string;
  redirectUrl: string;
}

export const imageUrl = (origins: QrLinkOrigins, id: string) => `${origins.baseUrl}/api/v1/qrcodes/${id}/image`;
/** A short link: on the default redirect host, or on a branded domain (always https: Caddy serves it). */
export const dynamicUrl = (origins: QrLinkOrigins, shortCode: string, hostname: string | null = null) =>
  hostname ? `https://${hostname}/r/${shortCode}` : `${origins.redirectUrl}/r/${shortCode}`;

function dynamicLinks(code: QrCodeRecord, origins: QrLinkOrigins) {
  return code.isDynamic && code.shortCode
    ? {
        short_code: code.shortCode,
        dynamic_url: dynamicUrl(origins, code.shortCode, code.domainHostname),
        ...(code.domainId ? { domain_id: code.domainId } : {}),
      }
    : {};
}

/** A dynamic code's smart-link settings (docs/smart-links.md); the password only as `has_password`. */
function linkSettings(code: QrCodeRecord) {
  return code.isDynamic
    ? {
        rules: code.rules,
        max_scans: code.maxScans,
        fallback_url: code.fallbackUrl,
        has_password: code.passwordHash !== null,
        utm: code.utm,
        scan_retention_days: code.scanRetentionDays,
        preview: code.preview,
      }
    : {};
}

/**
 * The list and get representation. `pendingScans` are scans still in the buffer. `content` is the
 * encoded string (the spec's field); `content_fields` is the content object as validated and stored,
 * so a client can read back what it sent (a Wi-Fi password included: the string holds it anyway).
 */
export function toListItem(code: QrCodeRecord, origins: QrLinkOrigins, pendingScans = 0) {
  return {
    id: code.id,
    name: code.name,
    type: code.type,
    content: code.contentString,
    content_fields: code.content,
    style_config: JSON.stringify(code.style ?? {}),
    folder_id: code.folderId,
    tags: code.tags,
    is_dynamic: code.isDynamic,
    status: effectiveStatus(code.status, code.expiresAt),
    scans: Number(code.scans) + pendingScans,
    ...dynamicLinks(code, origins),
    ...(code.expiresAt ? { expires_at: code.expiresAt.toISOString() } : {}),
    ...linkSettings(code),
    image_url: imageUrl(origins, code.id),
    created_at: code.createdAt.toISOString(),
    updated_at: code.updatedAt.toISOString(),
  };
}

/** The bulk-create item representation (no status, no scans). */
export function toBulkItem(code: QrCodeRecord, origins: QrLinkOrigins) {
  return {
    id: code.id,
    type: code.type,
    name: code.name,
    content_string: code.contentString,
    content_fields: code.content,
    tags: code.tags,
    is_dynamic: code.isDynamic,
    ...dynamicLinks(code, origins),
    image_url: imageUrl(origins, code.id),
    created_at: code.createdAt.toISOString(),
  };
}

/** The single-create representation: the bulk item plus status and scans. */
export function toCreated(code: QrCodeRecord, origins: QrLinkOrigins) {
  const { image_url, created_at, ...head } = toBulkItem(code, origins);
  return { ...head, status: effectiveStatus(code.status, code.expiresAt), scans: Number(code.scans), image_url, created_at };
}

export type QrCodeListItem = ReturnType<typeof toListItem>;
export type QrCodeBulkItem = ReturnType<typeof toBulkItem>;
export type QrCodeCreated = ReturnType<typeof toCreated>;
