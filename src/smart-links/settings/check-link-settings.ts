import type { FieldError } from '../../common/validation/field-error';
import { parseIsoDateTime } from '../../common/time/iso-date-time';
import { normaliseRedirectTarget, type OwnHosts } from '../../common/web/redirect-target';
import { COUNTRY_CODES } from './country-codes';
import {
  CONDITION_ORDER,
  CONTENT_TARGET,
  type LinkRule,
  MAX_RULES,
  MAX_SCAN_RETENTION_DAYS,
  MAX_SPLIT_ARMS,
  MIN_SPLIT_ARMS,
  PASSWORD_LENGTH,
  RULE_BROWSERS,
  RULE_DEVICES,
  RULE_OSES,
  type RuleConditions,
  type RuleTarget,
  type SplitArm,
  type TimeCondition,
  UTM_FIELDS,
  type Utm,
  WEEKDAYS,
} from './link-settings';
import { isKnownTimeZone, minutesOf } from './zoned-clock';
import { checkPreview, type LinkPreviewSettings } from './link-preview';

/**
 * Checks of the smart-link fields a client sends (docs/smart-links.md): every problem is reported
 * with its field path (`rules[3].conditions.time.time_zone`), so a client fixes all at once. Pure.
 */

const MAX_NAME = 100;
const MAX_LANGUAGE_RANGES = 50;
const MAX_QUERY_PAIRS = 20;
const MAX_QUERY_TEXT = 200;
const MAX_UTM_VALUE = 200;
const MAX_SCANS = 2_147_483_647;
const WEIGHT = { min: 1, max: 100 } as const;
const LANGUAGE_RANGE = /^[a-z]{1,8}(-[a-z0-9]{1,8})*$/i;
const TIME_KEYS = ['from', 'to', 'days', 'hours', 'time_zone'] as const;

export interface LinkCheckContext {
  ownHosts: OwnHosts;
  /** the code's type: only url codes redirect by their content, the others may target their landing page */
  isUrlType: boolean;
}

type Check<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `rules` as sent (an array of rules), checked whole; the value is the stored form (URLs normalised, codes upper-cased). */
export function checkRules(input: unknown, context: LinkCheckContext): Check<LinkRule[]> {
  if (!Array.isArray(input)) return { ok: false, errors: [{ field: 'rules', message: 'rules must be an array' }] };
  if (input.length > MAX_RULES) return { ok: false, errors: [{ field: 'rules', message: `rules must have at most ${MAX_RULES} rules` }] };
  const errors: FieldError[] = [];
  const rules = input.map((rule, index) => checkRule(rule, `rules[${index}]`, context, errors));
  return errors.length ? { ok: false, errors } : { ok: true, value: rules as LinkRule[] };
}

function checkRule(input: unknown, path: string, context: LinkCheckContext, errors: FieldError[]): LinkRule | null {
  if (!isPlainObject(input)) {
    errors.push({ field: path, message: `${path} must be an object with conditions and target` });
    return null;
  }
  for (const key of Object.keys(input)) {
    if (key !== 'name' && key !== 'conditions' && key !== 'target')
      errors.push({ field: `${path}.${key}`, message: `${path}.${key} is not a rule field (name, conditions, target)` });
  }
  const rule: LinkRule = { conditions: {}, target: '' };
  const name = checkName(input.name, `${path}.name`, errors);
  if (name !== undefined) rule.name = name;
  const conditions = checkConditions(input.conditions, `${path}.conditions`, errors);
  if (conditions) rule.conditions = conditions;
  const target = checkTarget(input.target, `${path}.target`, context, errors);
  if (target !== null) rule.target = target;
  return rule;
}

/** A rule's or an arm's optional name (analytics and the scan CSV show it): 1 to MAX_NAME characters, not blank. */
function checkName(input: unknown, field: string, errors: FieldError[]): string | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'string' && input.trim() !== '' && input.length <= MAX_NAME) return input;
  errors.push({ field, message: `${field} must be a non-blank string of at most ${MAX_NAME} characters` });
  return undefined;
}

function checkConditions(input: unknown, path: string, errors: FieldError[]): RuleConditions | null {
  if (input === undefined) {
    errors.push({ field: path, message: `${path} is required (an empty object matches every scan)` });
    return null;
  }
  if (!isPlainObject(input)) {
    errors.push({ field: path, message: `${path} must be an object` });
    return null;
  }
  const conditions: RuleConditions = {};
  for (const [key, value] of Object.entries(input)) {
    const field = `${path}.${key}`;
    switch (key) {
      case 'device':
        conditions.device = checkChoices(value, RULE_DEVICES, field, errors);
        break;
      case 'os':
        conditions.os = checkChoices(value, RULE_OSES, field, errors);
        break;
      case 'browser':
        conditions.browser = checkChoices(value, RULE_BROWSERS, field, errors);
        break;
      case 'language':
        conditions.language = checkList(value, field, MAX_LANGUAGE_RANGES, errors, languageRange);
        break;
      case 'country':
        conditions.country = checkList(value, field, COUNTRY_CODES.size, errors, countryCode);
        break;
      case 'time':
        conditions.time = checkTime(value, field, errors);
        break;
      case 'query':
        conditions.query = checkQuery(value, field, errors);
        break;
      case 'scans_below':
        conditions.scans_below = checkScansBelow(value, field, errors);
        break;
      default:
        errors.push({ field, message: `${field} is not a condition (${CONDITION_ORDER.join(', ')})` });
    }
  }
  return conditions;
}

type Item<T> = { ok: true; value: T } | { ok: false; expected: string };

/** A non-empty list of distinct items, each checked by `item` (its stored form, or what it should have been). */
function checkList<T>(value: unknown, field: string, max: number, errors: FieldError[], item: (value: unknown) => Item<T>): T[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    errors.push({ field, message: `${field} must be a non-empty array (an empty one would never match)` });
    return undefined;
  }
  if (value.length > max) {
    errors.push({ field, message: `${field} must have at most ${max} items` });
    return undefined;
  }
  const out: T[] = [];
  let failed = false;
  value.forEach((entry, index) => {
    const checked = item(entry);
    if (!checked.ok) {
      errors.push({ field: `${field}[${index}]`, message: `${field}[${index}] must be ${checked.expected}` });
      failed = true;
    } else if (!out.includes(checked.value)) out.push(checked.value);
  });
  return failed ? undefined : out;
}

const valid = <T>(value: T): Item<T> => ({ ok: true, value });
const invalid = (expected: string): Item<never> => ({ ok: false, expected });

function checkChoices<T extends string>(value: unknown, choices: readonly T[], field: string, errors: FieldError[]): T[] | undefined {
  return checkList(value, field, choices.length, errors, (item) =>
    typeof item === 'string' && (choices as readonly string[]).includes(item) ? valid(item as T) : invalid(`one of: ${choices.join(', ')}`),
  );
}

function checkTime(value: unknown, field: string, errors: FieldError[]): TimeCondition | undefined {
  if (!isPlainObject(value)) {
    errors.push({ field, message: `${field} must be an object with from/to, days, hours and time_zone` });
    return undefined;
  }
  const before = errors.length;
  const time: TimeCondition = {};
  for (const key of Object.keys(value)) {
    if (!(TIME_KEYS as readonly string[]).includes(key))
      errors.push({ field: `${field}.${key}`, message: `${field}.${key} is not a time field (${TIME_KEYS.join(', ')})` });
  }
  if (Object.keys(value).every((key) => key === 'time_zone')) {
    errors.push({ field, message: `${field} must name from, to, days or hours` });
  }
  const instant = (key: 'from' | 'to') => {
    const at = checkInstant(value[key], `${field}.${key}`, errors);
    if (at !== undefined) time[key] = new Date(at).toISOString();
    return at;
  };
  const from = instant('from');
  const to = instant('to');
  if (from !== undefined && to !== undefined && from >= to) errors.push({ field: `${field}.to`, message: `${field}.to must be after ${field}.from` });
  if (value.days !== undefined) time.days = checkChoices(value.days, WEEKDAYS, `${field}.days`, errors);
  if (value.hours !== undefined) time.hours = checkHours(value.hours, `${field}.hours`, errors);
  if (value.time_zone !== undefined) {
    if (typeof value.time_zone !== 'string' || !isKnownTimeZone(value.time_zone)) {
      errors.push({ field: `${field}.time_zone`, message: `${field}.time_zone must be an IANA time zone name such as Europe/Berlin` });
    } else time.time_zone = value.time_zone;
  }
  return errors.length > before ? undefined : time;
}

/** A language condition's item: a language range, stored in lower case. */
const languageRange = (item: unknown): Item<string> =>
  typeof item === 'string' && LANGUAGE_RANGE.test(item) ? valid(item.toLowerCase()) : invalid('a language range such as "de" or "en-US"');

/** A country condition's item: an ISO 3166-1 alpha-2 code, stored in upper case. */
const countryCode = (item: unknown): Item<string> =>
  typeof item === 'string' && COUNTRY_CODES.has(item.toUpperCase())
    ? valid(item.toUpperCase())
    : invalid('an ISO 3166-1 alpha-2 country code such as "DE"');

function checkScansBelow(value: unknown, field: string, errors: FieldError[]): number | undefined {
  if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SCANS) return value as number;
  errors.push({ field, message: `${field} must be an integer of at least 1` });
  return undefined;
}

/** A time condition's `from` or `to`: an ISO 8601 date-time with an offset, as epoch milliseconds. */
function checkInstant(text: unknown, field: string, errors: FieldError[]): number | undefined {
  if (text === undefined) return undefined;
  // Date.parse rolls impossible dates over (2027-02-30 is 2 March): parseIsoDateTime checks the calendar first.
  const at =
    typeof text === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text) &&
    parseIsoDateTime(text) !== null
      ? Date.parse(text)
      : NaN;
  if (Number.isNaN(at)) {
    errors.push({ field, message: `${field} must be an ISO 8601 date-time with an offset, e.g. 2027-03-01T09:00:00Z` });
    return undefined;
  }
  return at;
}

/** A time condition's daily window: {"from": "HH:MM", "to": "HH:MM"}, not empty. */
function checkHours(hours: unknown, field: string, errors: FieldError[]): TimeCondition['hours'] {
  const start = isPlainObject(hours) && typeof hours.from === 'string' ? minutesOf(hours.from) : null;
  const end = isPlainObject(hours) && typeof hours.to === 'string' ? minutesOf(hours.to) : null;
  if (start === null || end === null || !isPlainObject(hours) || Object.keys(hours).some((key) => key !== 'from' && key !== 'to')) {
    errors.push({ field, message: `${field} must be {"from": "HH:MM", "to": "HH:MM"} (24-hour local times)` });
  } else if (start === 24 * 60) {
    // 24:00 is the end of a day: from 24:00 to 00:00 would be a window that never matches.
    errors.push({ field: `${field}.from`, message: `${field}.from must be 00:00 to 23:59 (24:00 only ends a window)` });
  } else if (start === end) {
    errors.push({ field: `${field}.to`, message: `${field}.to must differ from ${field}.from (an empty window never matches)` });
  } else return { from: hours.from as string, to: hours.to as string };
  return undefined;
}

function checkQuery(value: unknown, field: string, errors: FieldError[]): Record<string, string> | undefined {
  if (!isPlainObject(value) || Object.keys(value).length === 0) {
    errors.push({ field, message: `${field} must be a non-empty object of parameter names and values` });
    return undefined;
  }
  if (Object.keys(value).length > MAX_QUERY_PAIRS) {
    errors.push({ field, message: `${field} must have at most ${MAX_QUERY_PAIRS} parameters` });
    return undefined;
  }
  const before = errors.length;
  for (const [name, expected] of Object.entries(value)) {
    if (name === '' || name.length > MAX_QUERY_TEXT)
      errors.push({ field, message: `${field} parameter names must be 1 to ${MAX_QUERY_TEXT} characters` });
    if (typeof expected !== 'string' || expected.length > MAX_QUERY_TEXT) {
      errors.push({ field: `${field}.${name}`, message: `${field}.${name} must be a string of at most ${MAX_QUERY_TEXT} characters` });
    }
  }
  return errors.length > before ? undefined : (value as Record<string, string>);
}

function checkTarget(input: unknown, path: string, context: LinkCheckContext, errors: FieldError[]): RuleTarget | null {
  if (input === CONTENT_TARGET) {
    if (!context.isUrlType) return CONTENT_TARGET;
    errors.push({ field: path, message: `${path} "content" is for codes with a landing page; a url code's rule names a URL` });
    return null;
  }
  if (typeof input === 'string') return checkUrl(input, path, context, errors);
  if (isPlainObject(input) && Object.keys(input).length === 1 && Array.isArray(input.split)) {
    const arms = input.split as unknown[];
    if (arms.length < MIN_SPLIT_ARMS || arms.length > MAX_SPLIT_ARMS) {
      errors.push({ field: `${path}.split`, message: `${path}.split must have ${MIN_SPLIT_ARMS} to ${MAX_SPLIT_ARMS} arms` });
      return null;
    }
    const before = errors.length;
    const checked = arms.map((arm, index): SplitArm | null => {
      const armPath = `${path}.split[${index}]`;
      if (!isPlainObject(arm) || Object.keys(arm).some((key) => key !== 'url' && key !== 'weight' && key !== 'name')) {
        errors.push({ field: armPath, message: `${armPath} must be {"url": …, "weight": 1-100, "name"?: …}` });
        return null;
      }
      const url = checkUrl(arm.url, `${armPath}.url`, context, errors);
      const name = checkName(arm.name, `${armPath}.name`, errors);
      if (!Number.isInteger(arm.weight) || (arm.weight as number) < WEIGHT.min || (arm.weight as number) > WEIGHT.max) {
        errors.push({ field: `${armPath}.weight`, message: `${armPath}.weight must be an integer from ${WEIGHT.min} to ${WEIGHT.max}` });
        return null;
      }
      return url === null ? null : { ...(name !== undefined && { name }), url, weight: arm.weight as number };
    });
    return errors.length > before ? null : { split: checked as SplitArm[] };
  }
  errors.push({ field: path, message: `${path} must be a URL, "content" (non-url codes) or {"split": [{"url", "weight"}, …]}` });
  return null;
}

function checkUrl(input: unknown, field: string, context: LinkCheckContext, errors: FieldError[]): string | null {
  const check = normaliseRedirectTarget(input, context.ownHosts);
  if (check.ok) return check.href;
  errors.push({ field, message: `${field} ${check.problem}` });
  return null;
}

/** `max_scans`: at least 1. */
export function maxScansProblem(value: unknown): FieldError | null {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SCANS
    ? null
    : { field: 'max_scans', message: 'max_scans must be an integer of at least 1' };
}

/** `scan_retention_days`: the code's scans are kept this many days (docs/scans-and-privacy.md#retention). */
export function scanRetentionDaysProblem(value: unknown): FieldError | null {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SCAN_RETENTION_DAYS
    ? null
    : { field: 'scan_retention_days', message: `scan_retention_days must be an integer from 1 to ${MAX_SCAN_RETENTION_DAYS}` };
}

/** `fallback_url`: a redirect target like any other (its normal form, or the problem). */
export function checkFallbackUrl(value: unknown, ownHosts: OwnHosts): Check<string> {
  const check = normaliseRedirectTarget(value, ownHosts);
  return check.ok ? { ok: true, value: check.href } : { ok: false, errors: [{ field: 'fallback_url', message: `fallback_url ${check.problem}` }] };
}

export function passwordProblem(value: unknown): FieldError | null {
  return typeof value === 'string' && [...value].length >= PASSWORD_LENGTH.min && [...value].length <= PASSWORD_LENGTH.max
    ? null
    : { field: 'password', message: `password must be a string of ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters` };
}

export function checkUtm(value: unknown): Check<Utm> {
  if (!isPlainObject(value) || Object.keys(value).length === 0) {
    return { ok: false, errors: [{ field: 'utm', message: `utm must be a non-empty object with ${UTM_FIELDS.join(', ')}` }] };
  }
  const errors: FieldError[] = [];
  const utm: Utm = {};
  for (const [key, text] of Object.entries(value)) {
    if (!(UTM_FIELDS as readonly string[]).includes(key))
      errors.push({ field: `utm.${key}`, message: `utm.${key} is not a UTM field (${UTM_FIELDS.join(', ')})` });
    else if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_UTM_VALUE) {
      errors.push({ field: `utm.${key}`, message: `utm.${key} must be a non-blank string of at most ${MAX_UTM_VALUE} characters` });
    } else utm[key as keyof Utm] = text;
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: utm };
}

/** The smart-link fields of a create or update request, as sent (null: remove, on update). */
export interface LinkFieldsInput {
  rules?: unknown;
  max_scans?: unknown;
  fallback_url?: unknown;
  password?: unknown;
  utm?: unknown;
  scan_retention_days?: unknown;
  preview?: unknown;
}

export interface CheckedLinkFields {
  rules?: LinkRule[];
  maxScans?: number | null;
  fallbackUrl?: string | null;
  /** the password as sent (hashed by the service), or null to remove it */
  password?: string | null;
  utm?: Utm | null;
  scanRetentionDays?: number | null;
  preview?: LinkPreviewSettings | null;
}

const LINK_FIELDS = ['rules', 'max_scans', 'fallback_url', 'password', 'utm', 'scan_retention_days', 'preview'] as const;

/**
 * The smart-link fields present in a request (left out: unchanged; null: removed), checked. They
 * apply to dynamic codes only: a static code has no link to evaluate at a scan.
 */
export function checkLinkFields(input: LinkFieldsInput, context: LinkCheckContext & { isDynamic: boolean }): Check<CheckedLinkFields> {
  const errors: FieldError[] = [];
  const out: CheckedLinkFields = {};
  if (!context.isDynamic) {
    for (const field of LINK_FIELDS) {
      if (input[field] !== undefined && input[field] !== null) {
        errors.push({ field, message: `${field} applies to dynamic codes only (a static code has no link); send is_dynamic: true` });
      }
    }
    return errors.length ? { ok: false, errors } : { ok: true, value: out };
  }
  if (input.rules !== undefined) {
    if (input.rules === null) out.rules = [];
    else {
      const rules = checkRules(input.rules, context);
      if (rules.ok) out.rules = rules.value;
      else errors.push(...rules.errors);
    }
  }
  if (input.max_scans !== undefined) {
    const problem = input.max_scans === null ? null : maxScansProblem(input.max_scans);
    if (problem) errors.push(problem);
    else out.maxScans = input.max_scans as number | null;
  }
  if (input.scan_retention_days !== undefined) {
    const problem = input.scan_retention_days === null ? null : scanRetentionDaysProblem(input.scan_retention_days);
    if (problem) errors.push(problem);
    else out.scanRetentionDays = input.scan_retention_days as number | null;
  }
  const fallbackUrl = checkRemovable(input.fallback_url, (value) => checkFallbackUrl(value, context.ownHosts), errors);
  if (fallbackUrl !== undefined) out.fallbackUrl = fallbackUrl;
  if (input.password !== undefined) {
    const problem = input.password === null ? null : passwordProblem(input.password);
    if (problem) errors.push(problem);
    else out.password = input.password as string | null;
  }
  const utm = checkRemovable(input.utm, checkUtm, errors);
  if (utm !== undefined) out.utm = utm;
  const preview = checkRemovable(input.preview, checkPreview, errors);
  if (preview !== undefined) out.preview = preview;
  return errors.length ? { ok: false, errors } : { ok: true, value: out };
}

/** A field that null removes: undefined when left out or refused (its errors added), else its value or null. */
function checkRemovable<T>(input: unknown, check: (value: unknown) => Check<T>, errors: FieldError[]): T | null | undefined {
  if (input === undefined || input === null) return input;
  const checked = check(input);
  if (checked.ok) return checked.value;
  errors.push(...checked.errors);
  return undefined;
}
