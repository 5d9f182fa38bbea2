import type { FieldError } from '../common/validation/field-error';
import { checkTagList, editTagList, MAX_TAGS_PER_CODE, tagKey } from '../tags/tag-names';

/**
 * The rules of a bulk edit's change set (docs/tags-and-bulk-edits.md#bulk-edits), pure: what a
 * request may ask, and what it changes on one code. The per-code result is an update in the single
 * update's own terms, so every code is then checked and written by the update's rules.
 */

/** `set`: fields given the same value on every code (null removes an optional one). */
export interface SetFields {
  status?: 'active' | 'paused';
  folder_id?: string | null;
  expires_at?: string | null;
  domain_id?: string | null;
  utm?: Record<string, string> | null;
  brand_kit_id?: string | null;
  style?: Record<string, unknown>;
}

/** A change set as checked: tags normalized, the target replacement's prefixes. */
export interface ChangeSet {
  set: SetFields;
  addTags: string[];
  removeTags: string[];
  replaceTarget: { from: string; to: string } | null;
}

export interface ChangeSetInput {
  set?: SetFields;
  add_tags?: unknown;
  remove_tags?: unknown;
  replace_target?: { from?: unknown; to?: unknown };
}

export type ChangeSetCheck = { ok: true; change: ChangeSet } | { ok: false; errors: FieldError[] };

const URL_PREFIX = /^https?:\/\/[^\s]/i;
const MAX_URL = 2048;

function replaceTargetProblems(replace: NonNullable<ChangeSetInput['replace_target']>): FieldError[] {
  const errors: FieldError[] = [];
  for (const side of ['from', 'to'] as const) {
    const value = replace[side];
    const field = `replace_target.${side}`;
    if (typeof value !== 'string' || !URL_PREFIX.test(value) || value.length > MAX_URL) {
      errors.push({ field, message: `${field} must be the start of an http(s) URL, at most ${MAX_URL} characters ("https://old.example/")` });
    }
  }
  if (errors.length === 0 && replace.from === replace.to)
    errors.push({ field: 'replace_target.to', message: 'replace_target.to must differ from replace_target.from' });
  return errors;
}

/** Checks what the change set asks, whatever the codes: at least one change, tag names, no tag both added and removed, URL prefixes. */
export function checkChangeSet(input: ChangeSetInput): ChangeSetCheck {
  const errors: FieldError[] = [];
  const set = input.set ?? {};
  const lists = { add_tags: input.add_tags ?? [], remove_tags: input.remove_tags ?? [] };
  const tags: Record<keyof typeof lists, string[]> = { add_tags: [], remove_tags: [] };
  for (const field of ['add_tags', 'remove_tags'] as const) {
    const check = checkTagList(lists[field], field);
    if (check.ok) tags[field] = check.tags;
    else errors.push(...check.errors);
  }
  const removed = new Set(tags.remove_tags.map(tagKey));
  const both = tags.add_tags.filter((name) => removed.has(tagKey(name)));
  if (both.length > 0) errors.push({ field: 'remove_tags', message: `remove_tags: ${both.map((name) => `"${name}"`).join(', ')} also in add_tags` });
  if (input.replace_target !== undefined) errors.push(...replaceTargetProblems(input.replace_target));
  const asksNothing =
    Object.keys(set).length === 0 && tags.add_tags.length === 0 && tags.remove_tags.length === 0 && input.replace_target === undefined;
  if (asksNothing && errors.length === 0)
    errors.push({ field: 'set', message: 'give at least one change: set, add_tags, remove_tags or replace_target' });
  if (errors.length > 0) return { ok: false, errors };
  const replaceTarget = input.replace_target ? { from: input.replace_target.from as string, to: input.replace_target.to as string } : null;
  return { ok: true, change: { set, addTags: tags.add_tags, removeTags: tags.remove_tags, replaceTarget } };
}

/** What the plan reads of a code (its current state). */
export interface PlannableCode {
  type: string;
  isDynamic: boolean;
  content: Record<string, unknown>;
  status: string;
  folderId: string | null;
  expiresAt: Date | null;
  domainId: string | null;
  utm: Record<string, string> | null;
  brandKitId: string | null;
  style: Record<string, unknown>;
  tags: string[];
}

/** An update in the single update's field names (and `tags`). */
export type PlannedUpdate = SetFields & { tags?: string[]; content?: Record<string, unknown> };

/** One code's change: the update to apply, and the changed fields before and after (for the answer's sample). */
export type CodePlan =
  | { kind: 'unchanged' }
  | { kind: 'change'; update: PlannedUpdate; before: Record<string, unknown>; after: Record<string, unknown> }
  | { kind: 'refused'; errors: FieldError[] };

/** status, expiry, domain and UTM are a link's: a static code has none, so they pass it by. */
const LINK_ONLY = new Set<keyof SetFields>(['status', 'expires_at', 'domain_id', 'utm']);

function currentOf(code: PlannableCode, field: keyof SetFields): unknown {
  switch (field) {
    case 'status':
      return code.status;
    case 'folder_id':
      return code.folderId;
    case 'expires_at':
      return code.expiresAt?.toISOString() ?? null;
    case 'domain_id':
      return code.domainId;
    case 'utm':
      return code.utm;
    case 'brand_kit_id':
      return code.brandKitId;
    case 'style':
      return code.style;
  }
}

/** ISO instants compare as instants ("…Z" and "+00:00" alike). */
function sameValue(field: keyof SetFields, a: unknown, b: unknown): boolean {
  if (field === 'expires_at' && typeof a === 'string' && typeof b === 'string') return new Date(a).getTime() === new Date(b).getTime();
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The code's new target URL, when `replace_target` applies to it (a url code whose URL starts with `from`). */
function replacedUrl(code: PlannableCode, replace: ChangeSet['replaceTarget']): string | null {
  const url = code.content.url;
  if (!replace || code.type !== 'url' || typeof url !== 'string' || !url.startsWith(replace.from)) return null;
  return replace.to + url.slice(replace.from.length);
}

/** What the change set does to one code: only the fields that differ; nothing when none does. */
export function planChange(code: PlannableCode, change: ChangeSet): CodePlan {
  const update: PlannedUpdate = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(change.set) as Array<[keyof SetFields, unknown]>) {
    if (LINK_ONLY.has(field) && !code.isDynamic) continue;
    const current = currentOf(code, field);
    if (sameValue(field, current, value)) continue;
    (update as Record<string, unknown>)[field] = value;
    before[field] = current;
    after[field] = value;
  }
  const tags = editTagList(code.tags, change.addTags, change.removeTags);
  if (tags && tags.length > MAX_TAGS_PER_CODE) {
    return {
      kind: 'refused',
      errors: [{ field: 'add_tags', message: `add_tags: the code would have ${tags.length} tags; at most ${MAX_TAGS_PER_CODE}` }],
    };
  }
  if (tags) {
    update.tags = tags;
    before.tags = code.tags;
    after.tags = tags;
  }
  const url = replacedUrl(code, change.replaceTarget);
  if (url !== null && url !== code.content.url) {
    update.content = { ...code.content, url };
    before.target = code.content.url;
    after.target = url;
  }
  return Object.keys(update).length === 0 ? { kind: 'unchanged' } : { kind: 'change', update, before, after };
}
