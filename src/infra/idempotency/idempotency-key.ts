import { createHash } from 'node:crypto';
import type { FieldError } from '../../common/validation/field-error';

/** Route metadata of the Idempotent decorator. */
export const IDEMPOTENT_ROUTE = 'idempotency:route';
/** Route metadata: response fields the stored response leaves out. */
export const IDEMPOTENT_NOT_KEPT = 'idempotency:not-kept';
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** A completed request's response is kept this long; the key can then be used again. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;

/** Visible ASCII (the header draft's sf-string characters); a UUID or any client-made token fits. */
const KEY_CHARACTERS = /^[\x20-\x7e]+$/;

export type ParsedKey = { ok: true; key: string } | { ok: false; error: FieldError } | { ok: true; key: undefined };

/**
 * Every value the request sent as Idempotency-Key, from its raw header lines: Node joins repeated
 * lines of a header it does not know into one string ("a, b"), which would pass as one key.
 */
export function idempotencyKeyLines(rawHeaders: readonly string[]): string | string[] | undefined {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i].toLowerCase() === IDEMPOTENCY_KEY_HEADER) values.push(rawHeaders[i + 1]);
  }
  return values.length > 1 ? values : values[0];
}

/**
 * The Idempotency-Key header's value. The header draft writes it as a structured-field string
 * (`"8e03978e-..."`, quoted); a bare token is taken as it is, the quotes are not part of the key.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): ParsedKey {
  if (header === undefined) return { ok: true, key: undefined };
  const field = 'Idempotency-Key';
  if (Array.isArray(header)) return { ok: false, error: { field, message: 'Idempotency-Key was sent more than once; send it once' } };
  const quoted = /^"(.*)"$/.exec(header);
  const key = quoted ? quoted[1].replace(/\\(["\\])/g, '$1') : header;
  if (key.length === 0) return { ok: false, error: { field, message: 'Idempotency-Key must not be empty' } };
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return { ok: false, error: { field, message: `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters` } };
  }
  if (!KEY_CHARACTERS.test(key)) return { ok: false, error: { field, message: 'Idempotency-Key must be printable ASCII' } };
  return { ok: true, key };
}

/**
 * What makes two requests "the same": method, path and the JSON body, with object keys in a fixed
 * order (a client re-serialising its body in another key order sends the same request).
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
