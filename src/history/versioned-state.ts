import { isDeepStrictEqual } from 'node:util';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';

/** A field's value as a version stores it (JSON). */
export type VersionedValue = string | number | boolean | null | VersionedValue[] | { [key: string]: VersionedValue };

/** What a version keeps of a code: the versioned fields by their API names. */
export type VersionedState = Record<string, VersionedValue>;

/** One field of a code whose every change makes a version (docs/statuses-and-lifecycle.md#destination-history). */
export interface VersionedField {
  /** Its name in the API: in the update body, in history entries and in a version's stored state. */
  readonly name: string;
  /** Its value in a code, as JSON. */
  readonly read: (code: QrCodeRecord) => VersionedValue;
  /** Write-only (a password, kept as its hash): history shows "changed" (or null when unset), never the value. */
  readonly secret?: boolean;
  /** Its value in versions stored before it was versioned (null when not given): what a code had then. */
  readonly absent?: VersionedValue;
  /** The update fields that set it back to a stored value on restore (default: `{ [name]: value }`). */
  readonly restore?: (value: VersionedValue) => Record<string, unknown>;
}

/**
 * What scans get from a code, and so what its history keeps: one line per field. The name, style
 * and folder are left out: they change how the code is labelled, drawn or filed, not where it
 * leads, and a restore must not undo a rename or move a code between folders. `is_dynamic` too: an
 * upgrade cannot be undone.
 */
export const VERSIONED_FIELDS: readonly VersionedField[] = [
  { name: 'content', read: (code) => code.content as VersionedValue },
  { name: 'status', read: (code) => code.status },
  { name: 'expires_at', read: (code) => code.expiresAt?.toISOString() ?? null },
  { name: 'rules', read: (code) => code.rules as unknown as VersionedValue, absent: [] },
  { name: 'max_scans', read: (code) => code.maxScans },
  { name: 'fallback_url', read: (code) => code.fallbackUrl },
  { name: 'utm', read: (code) => code.utm },
  // Kept as its hash, shown as "changed"; a restore sets the hash back (RESTORED_PASSWORD_HASH), never a password.
  { name: 'password', read: (code) => code.passwordHash, secret: true, restore: (hash) => ({ [RESTORED_PASSWORD_HASH]: hash }) },
];

/** The update field a restore sets a version's password hash back through (not a request field: the API refuses it). */
export const RESTORED_PASSWORD_HASH = 'password_hash';

/** How history shows a secret field that is set. */
export const SECRET_CHANGED = 'changed';

/** The versioned state of a code. */
export function versionedState(code: QrCodeRecord, fields: readonly VersionedField[] = VERSIONED_FIELDS): VersionedState {
  return Object.fromEntries(fields.map((field) => [field.name, field.read(code)]));
}

/** A stored state read back: a field versioned after the state was stored takes its `absent` value. */
export function storedState(stored: Record<string, unknown>, fields: readonly VersionedField[] = VERSIONED_FIELDS): VersionedState {
  return Object.fromEntries(
    fields.map((field) => [field.name, field.name in stored ? (stored[field.name] as VersionedValue) : (field.absent ?? null)]),
  );
}

/** The names of the fields whose values differ (by value: objects compare whatever their key order). */
export function changedFields(from: VersionedState, to: VersionedState, fields: readonly VersionedField[] = VERSIONED_FIELDS): string[] {
  return fields.filter((field) => !isDeepStrictEqual(from[field.name], to[field.name])).map((field) => field.name);
}

/** The fields of a state as history shows them: only `names`, secrets as "changed" (or null when unset). */
export function shownFields(state: VersionedState, names: readonly string[], fields: readonly VersionedField[] = VERSIONED_FIELDS): VersionedState {
  const secret = new Set(fields.filter((field) => field.secret).map((field) => field.name));
  return Object.fromEntries(names.map((name) => [name, secret.has(name) && state[name] !== null ? SECRET_CHANGED : state[name]]));
}

/** The update fields that bring a code from `current` back to `target`: only the fields that differ. */
export function restoringUpdate(
  current: VersionedState,
  target: VersionedState,
  fields: readonly VersionedField[] = VERSIONED_FIELDS,
): Record<string, unknown> {
  const differing = new Set(changedFields(current, target, fields));
  return Object.assign(
    {},
    ...fields
      .filter((field) => differing.has(field.name))
      .map((field) => (field.restore ? field.restore(target[field.name]) : { [field.name]: target[field.name] })),
  ) as Record<string, unknown>;
}
