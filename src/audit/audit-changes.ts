import type { AuditedWrite } from '../infra/audit/audit-trail';

/** How a secret's value is recorded: never the value, only that it is set (null when it is not). */
export const SECRET_CHANGED = 'changed';

/** What an entry records of a write: the changed fields before and after, or a bulk write's ids. */
export interface AuditChanges {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  ids?: string[];
}

/**
 * The changes of a write, or null when it changed nothing (an update whose every field kept its
 * value: no entry). For an update only the fields whose values differ, compared by value (dates
 * by their instant, nested objects whatever their key order); a create has `after` only, a delete `before` only.
 * Secret fields are compared by value like the others but recorded as "changed" (null when unset),
 * never their values.
 */
export function auditChanges(write: Pick<AuditedWrite, 'before' | 'after' | 'secretFields' | 'ids'>): AuditChanges | null {
  if (write.ids) return { ids: [...write.ids] };
  const secrets = new Set(write.secretFields ?? []);
  const shown = (field: string, value: unknown) => (secrets.has(field) && value !== null && value !== undefined ? SECRET_CHANGED : value);
  const { before, after } = write;
  if (before && after) {
    const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (field) => canonicalJson(before[field]) !== canonicalJson(after[field]),
    );
    if (fields.length === 0) return null;
    return {
      before: Object.fromEntries(fields.map((field) => [field, shown(field, before[field] ?? null)])),
      after: Object.fromEntries(fields.map((field) => [field, shown(field, after[field] ?? null)])),
    };
  }
  const only = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, shown(field, value)]));
  return before ? { before: only(before) } : after ? { after: only(after) } : {};
}

/** The value as JSON with every object's keys in order: equal texts, equal values (a date by its instant; undefined as null). */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, entry: unknown) =>
    entry && typeof entry === 'object' && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : entry,
  );
}
