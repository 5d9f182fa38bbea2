import type { AuditedWrite } from '../infra/audit/audit-trail';

/** How a secret's value is recorded: never the value, only that it changed. */
export const SECRET_CHANGED = 'changed';

/** What an entry records of a write: the changed fields before and after, or a bulk write's ids. */
export interface AuditChanges {
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  ids?: string[];
}

/**
 * The changes of a write: for an update only the fields whose values differ (compared as JSON, so
 * dates and nested objects compare by value); a create has `after` only, a delete `before` only.
 * Secret fields are recorded as "changed", on both sides, never their values.
 */
export function auditChanges(write: Pick<AuditedWrite, 'before' | 'after' | 'secretFields' | 'ids'>): AuditChanges {
  if (write.ids) return { ids: [...write.ids] };
  const secrets = new Set(write.secretFields ?? []);
  const shown = (field: string, value: unknown) => (secrets.has(field) ? SECRET_CHANGED : value);
  const { before, after } = write;
  if (before && after) {
    const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (field) => secrets.has(field) || JSON.stringify(before[field]) !== JSON.stringify(after[field]),
    );
    return {
      before: Object.fromEntries(fields.map((field) => [field, shown(field, before[field] ?? null)])),
      after: Object.fromEntries(fields.map((field) => [field, shown(field, after[field] ?? null)])),
    };
  }
  const only = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, shown(field, value)]));
  return before ? { before: only(before) } : after ? { after: only(after) } : {};
}
