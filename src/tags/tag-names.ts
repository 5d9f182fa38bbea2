import type { FieldError } from '../common/validation/field-error';

/**
 * The rules of tag names (docs/tags-and-bulk-edits.md#names), pure: a code's tags are labels of its
 * account, compared without regard to case ("Spring" and "spring" are one tag, written as it was
 * first written). Shared by the tags API, code writes, bulk edits, CSV imports and the importers.
 */

export const MAX_TAG_NAME_LENGTH = 50;
export const MAX_TAGS_PER_CODE = 20;

/** Control, format, surrogate, private-use and unassigned characters; and the two list separators (our CSV's `|`, others' `,`). */
const FORBIDDEN = /[\p{C}|,]/u;

/** A tag name as stored: NFC, trimmed, runs of white space as one space. */
export function normalizeTagName(raw: string): string {
  return raw.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** The key two names share when they name one tag. */
export const tagKey = (name: string): string => name.toLowerCase();

/** Why a (normalized) name is not a tag name, or null. The message reads after the field's name. */
export function tagNameProblem(name: string): string | null {
  const length = [...name].length;
  if (length === 0) return 'must not be blank';
  if (length > MAX_TAG_NAME_LENGTH) return `must be at most ${MAX_TAG_NAME_LENGTH} characters (has ${length})`;
  if (FORBIDDEN.test(name)) return 'must not contain control characters, "|" or ","';
  return null;
}

export type TagNameCheck = { ok: true; name: string } | { ok: false; error: FieldError };

/** One tag name from a request: a string, normalized, within the rules. */
export function checkTagName(raw: unknown, field: string): TagNameCheck {
  if (typeof raw !== 'string') return { ok: false, error: { field, message: `${field} must be a string` } };
  const name = normalizeTagName(raw);
  const problem = tagNameProblem(name);
  return problem ? { ok: false, error: { field, message: `${field} ${problem}` } } : { ok: true, name };
}

export type TagListCheck = { ok: true; tags: string[] } | { ok: false; errors: FieldError[] };

/**
 * A list of tag names (a code's `tags`, a bulk edit's `add_tags`): names in the order given, a
 * name repeated (in any case) kept once as first written, at most `max` distinct ones.
 */
export function checkTagList(raw: unknown, field = 'tags', max = MAX_TAGS_PER_CODE): TagListCheck {
  if (!Array.isArray(raw)) return { ok: false, errors: [{ field, message: `${field} must be an array of tag names` }] };
  const errors: FieldError[] = [];
  const tags = new Map<string, string>();
  raw.forEach((item, index) => {
    const check = checkTagName(item, `${field}[${index}]`);
    if (!check.ok) errors.push(check.error);
    else if (!tags.has(tagKey(check.name))) tags.set(tagKey(check.name), check.name);
  });
  if (errors.length > 0) return { ok: false, errors: errors.slice(0, MAX_TAGS_PER_CODE) };
  if (tags.size > max) return { ok: false, errors: [{ field, message: `${field} must hold at most ${max} tags (has ${tags.size})` }] };
  return { ok: true, tags: [...tags.values()] };
}

/** `current` with `remove` taken out and `add` put at the end (each compared without case); null when nothing changes. */
export function editTagList(current: readonly string[], add: readonly string[], remove: readonly string[]): string[] | null {
  const removed = new Set(remove.map(tagKey));
  const kept = current.filter((name) => !removed.has(tagKey(name)));
  const present = new Set(kept.map(tagKey));
  const added = add.filter((name) => !present.has(tagKey(name)));
  const next = [...kept, ...added];
  return next.length === current.length && next.every((name, index) => name === current[index]) ? null : next;
}
