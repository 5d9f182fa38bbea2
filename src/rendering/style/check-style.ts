import { type FieldError } from '../../common/validation/field-error';
import { HEX_COLOR } from './rgba-color';
import { findLogoProblem } from './logo-data-uri';
import { type QrStyle } from './qr-style';
import { findScannabilityProblems } from './scannability';
import { findFrameProblems } from './frame-check';
import { type NumberRule, type ObjectRule, STYLE_RULE, type StyleRule } from './style-schema';

/** On a refusal for scannability only, `refusedStyle` holds the well-formed style (it can still be measured). */
export type StyleCheck = { ok: true; style: QrStyle } | { ok: false; errors: FieldError[]; refusedStyle?: QrStyle };

/** A hostile body can hold thousands of bad keys; past this many the answer would only grow. */
export const MAX_STYLE_ERRORS = 50;

const STYLE_FIELD = 'style';

/**
 * Validates a raw `style` value from a request: exact shape (docs/styling-and-scannability.md), then scannability.
 * On success `style` holds only the keys given, without undefined values. The walk follows the
 * schema, never the input, so its depth is bounded by the schema whatever the nesting sent.
 * Never throws.
 */
export function checkStyle(raw: unknown): StyleCheck {
  const errors = new FieldErrorList(MAX_STYLE_ERRORS);
  let checked: unknown;
  try {
    checked = checkValue(STYLE_RULE, raw, STYLE_FIELD, errors);
  } catch {
    // Only values JSON cannot produce (proxies, throwing getters) get here; they are refused alike.
    return { ok: false, errors: [{ field: STYLE_FIELD, message: 'style must be a plain JSON object' }] };
  }
  if (checked === INVALID) return { ok: false, errors: errors.items };

  const style = checked as QrStyle;
  const scannabilityProblems = [...findScannabilityProblems(style), ...findFrameProblems(style)];
  if (scannabilityProblems.length > 0) return { ok: false, errors: scannabilityProblems, refusedStyle: style };
  return { ok: true, style };
}

class FieldErrorList {
  readonly items: FieldError[] = [];

  constructor(private readonly limit: number) {}

  get full(): boolean {
    return this.items.length >= this.limit;
  }

  /** Messages start with the field, like the other request checks, so each reads on its own. */
  add(field: string, predicate: string): void {
    if (!this.full) this.items.push({ field, message: `${field} ${predicate}` });
  }
}

const INVALID = Symbol('invalid');

function checkValue(rule: StyleRule, value: unknown, path: string, errors: FieldErrorList): unknown {
  switch (rule.kind) {
    case 'object':
      return checkObject(rule, value, path, errors);
    case 'list': {
      if (!Array.isArray(value)) return fail(errors, path, 'must be an array');
      // The length is judged before any item is looked at, so a huge array costs nothing.
      if (value.length < rule.minItems || value.length > rule.maxItems) {
        return fail(errors, path, `must have ${rule.minItems} to ${rule.maxItems} items`);
      }
      const items: unknown[] = [];
      for (let index = 0; index < value.length; index++) {
        items.push(checkValue(rule.items, value[index], `${path}[${index}]`, errors));
      }
      return items.includes(INVALID) ? INVALID : items;
    }
    case 'choice':
      if (typeof value === 'string' && rule.values.includes(value)) return value;
      return fail(errors, path, `must be one of: ${rule.values.join(', ')}`);
    case 'color': {
      const isTransparent = rule.allowsTransparent && value === 'transparent';
      if (typeof value === 'string' && (HEX_COLOR.test(value) || isTransparent)) return value;
      const orTransparent = rule.allowsTransparent ? ' or "transparent"' : '';
      return fail(errors, path, `must be a hex color #rgb, #rrggbb or #rrggbbaa${orTransparent}`);
    }
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value) && isWithin(rule, value)) return value;
      return fail(errors, path, `must be ${describeNumber(rule)}`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return fail(errors, path, 'must be true or false');
    case 'text': {
      if (typeof value !== 'string') return fail(errors, path, 'must be a string');
      const length = [...value].length;
      if (length < 1 || length > rule.maxLength) return fail(errors, path, `must have 1 to ${rule.maxLength} characters`);
      return value;
    }
    case 'logo': {
      const problem = findLogoProblem(value);
      return problem ? fail(errors, path, problem) : value;
    }
  }
}

function checkObject(rule: ObjectRule, value: unknown, path: string, errors: FieldErrorList): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(errors, path, 'must be an object');
  }
  const input = value as Record<string, unknown>;
  const output: Record<string, unknown> = {};
  let valid = true;
  for (const key of Object.keys(input)) {
    if (errors.full) return INVALID;
    // hasOwn, not `in`: keys such as __proto__ or constructor must not match Object.prototype.
    if (!Object.hasOwn(rule.fields, key)) {
      errors.add(`${path}.${key}`, 'is not an allowed field');
      valid = false;
      continue;
    }
    if (input[key] === undefined) continue;
    const checked = checkValue(rule.fields[key], input[key], `${path}.${key}`, errors);
    if (checked === INVALID) valid = false;
    else output[key] = checked;
  }
  for (const key of rule.required ?? []) {
    if (!Object.hasOwn(input, key) || input[key] === undefined) {
      errors.add(`${path}.${key}`, 'is required');
      valid = false;
    }
  }
  return valid ? output : INVALID;
}

function fail(errors: FieldErrorList, path: string, predicate: string): typeof INVALID {
  errors.add(path, predicate);
  return INVALID;
}

function isWithin(rule: NumberRule, value: number): boolean {
  if (rule.integer && !Number.isInteger(value)) return false;
  const aboveMin = rule.minExclusive ? value > rule.min : value >= rule.min;
  return aboveMin && value <= rule.max;
}

function describeNumber(rule: NumberRule): string {
  if (rule.integer) return `an integer from ${rule.min} to ${rule.max}`;
  if (rule.minExclusive) return `a number greater than ${rule.min} and at most ${rule.max}`;
  return `a number from ${rule.min} to ${rule.max}`;
}
