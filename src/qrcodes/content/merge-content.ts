import { isPlainObject } from './declared-fields';

/**
 * The content an update with `content_merge=true` asks for: the stored content with the sent
 * fields laid over it, as a JSON Merge Patch (RFC 7396) does. A sent value replaces the stored one,
 * null removes the field, and a nested object (vCard `address`) is merged the same way. The result
 * is checked as a whole afterwards, like a replacing update. Pure: neither input is changed.
 */
export function mergeContent(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  // A Map and Object.fromEntries: assigning a `__proto__` key would set the prototype instead of
  // keeping the key, which the content check must see (and refuse) like any unknown field.
  const merged = new Map(Object.entries(current));
  for (const [key, value] of Object.entries(patch)) {
    const stored = merged.get(key);
    if (value === null) merged.delete(key);
    else if (isPlainObject(value) && isPlainObject(stored)) merged.set(key, mergeContent(stored, value));
    else merged.set(key, value);
  }
  return Object.fromEntries(merged);
}
