import type { QrCodeRecord } from '../qrcodes/qr-code.record';

/**
 * A code's fields as its audit entries record them, by their API names: every field an update can
 * set (audited-code.spec.ts holds this table to UpdateQrCodeDto, so a new field cannot be left
 * out), and `type`, which a create sets and nothing changes.
 */
const AUDITED_CODE_FIELDS = {
  name: (code) => code.name,
  type: (code) => code.type,
  content: (code) => code.content,
  style: (code) => code.style,
  folder_id: (code) => code.folderId,
  tags: (code) => code.tags,
  is_dynamic: (code) => code.isDynamic,
  short_code: (code) => code.shortCode,
  domain_id: (code) => code.domainId,
  status: (code) => code.status,
  expires_at: (code) => code.expiresAt?.toISOString() ?? null,
  rules: (code) => code.rules,
  max_scans: (code) => code.maxScans,
  fallback_url: (code) => code.fallbackUrl,
  // Its hash: a new password (even the same one again) is a new hash, recorded as "changed".
  password: (code) => code.passwordHash,
  utm: (code) => code.utm,
  scan_retention_days: (code) => code.scanRetentionDays,
  preview: (code) => code.preview,
} as const satisfies Record<string, (code: QrCodeRecord) => unknown>;

export type AuditedCodeField = keyof typeof AUDITED_CODE_FIELDS;

export const AUDITED_CODE_FIELD_NAMES = Object.keys(AUDITED_CODE_FIELDS) as AuditedCodeField[];

/** The fields recorded only as "changed" (or null when unset), never their values. */
export const SECRET_CODE_FIELDS: readonly AuditedCodeField[] = ['password'];

/** The audited fields of a code, by their API names. */
export function auditedCode(code: QrCodeRecord): Record<AuditedCodeField, unknown> {
  return Object.fromEntries(AUDITED_CODE_FIELD_NAMES.map((name) => [name, AUDITED_CODE_FIELDS[name](code)])) as Record<AuditedCodeField, unknown>;
}
