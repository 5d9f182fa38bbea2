import fc from 'fast-check';

/**
 * Arbitraries of hostile input for the fuzz suite: strings with NUL and other controls, lone
 * surrogates, astral and invisible characters; values of the wrong type; JSON that is huge, deep
 * or not JSON at all; bodies in the wrong encoding or under the wrong content type; path segments
 * and query strings with broken percent-encoding.
 */

const char = (code: number) => String.fromCharCode(code);

/** Characters that break naive text handling, one per entry. */
const NASTY_CHARACTERS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\u000b',
  '\f',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u00ad',
  '\u00e9',
  '\u00ff',
  '\u2028',
  '\u2029',
  '\u200b',
  '\u200d',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\ufffd',
  '\uffff',
  '\ufdd0',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\udc00\ud800',
  '😀',
  '👩‍👩‍👧‍👦',
  '𝕏',
  '\u{10ffff}',
  '\u{e0001}',
  'ǅ',
  'İ',
  'ß',
  'ﬃ',
  '\u0301',
  '\u0488',
  '%',
  '_',
  '\\',
  '"',
  "'",
  '`',
  '<',
  '>',
  '&',
  '{',
  '}',
  '[',
  ']',
  '/',
  '?',
  '#',
  '=',
  ';',
  ',',
  '*',
  ' ',
];

/** Whole strings worth trying as they are. */
const NASTY_STRINGS = [
  '',
  ' ',
  '  ',
  '\u0000',
  'a\u0000b',
  '\u0000\u0000\u0000',
  '\ud800',
  'a\udfffb',
  '\udc00\ud800',
  'null',
  'undefined',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '0x10',
  '1_000',
  '%',
  '%%',
  '%00',
  '%zz',
  '%ED%A0%80',
  '%C0%AF',
  '\\',
  '\\\\',
  '\\u0000',
  '%_\\',
  "' OR '1'='1",
  '"; DROP TABLE qr_codes; --',
  '$1',
  '$$',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '<svg onload=alert(1)>',
  ']]>',
  '<!--',
  'javascript:alert(1)',
  'data:text/html,x',
  '../../../../etc/passwd',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '2026-13-45T25:61:61Z',
  '2026-02-30T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '0000-01-01T00:00:00Z',
  '2026-01-01',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '{}',
  '[]',
  'https://example.com/😀',
  'https://bücher.example/',
  'https://аррӏе.com/',
  'http://localhost:3000/r/abc',
  '#fff',
  '#ffffff00',
  '#gggggg',
  'red',
  'rgb(0,0,0)',
  'transparent',
];

/** One UTF-16 code unit, any: lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map(char);
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code));
const controlCharacter = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map(char);
const printableAscii = fc.integer({ min: 0x20, max: 0x7e }).map(char);

const textUnit = fc.oneof(
  { weight: 4, arbitrary: printableAscii },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_CHARACTERS) },
  { weight: 1, arbitrary: controlCharacter },
  { weight: 1, arbitrary: anyCodeUnit },
  { weight: 1, arbitrary: anyCodePoint },
);

/** A hostile string: a known troublemaker, text with NUL or a lone surrogate in it, a mix of nasty characters, or a long one. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.string({ unit: printableAscii, maxLength: 8 }),
        fc.constantFrom('\u0000', '\ud800', '\udfff', '\u0000\u0000', '\udc00\ud800'),
        fc.string({ unit: printableAscii, maxLength: 8 }),
      )
      .map(([before, poison, after]) => before + poison + after),
  },
  { weight: 6, arbitrary: fc.string({ unit: textUnit, maxLength: 24 }) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...NASTY_CHARACTERS), fc.integer({ min: 101, max: 5000 })).map(([c, n]) => c.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 70_000 }).map((n) => 'x'.repeat(n)) },
);

/** Numbers JSON can carry that are still wrong: negative, fractional, huge, tiny. */
const awkwardNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, 1e21, -1e21, 2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, 99, 100, 101, 2000, 2001),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value nested `depth` levels deep, as arrays or objects. */
export function nested(depth: number, shape: 'array' | 'object', leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = shape === 'array' ? [value] : { a: value };
  return value;
}

/** A value of any JSON type, usually the wrong one for the field it lands in. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: hostileString },
  { weight: 3, arbitrary: awkwardNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.array(hostileString, { maxLength: 4 }) },
  { weight: 2, arbitrary: fc.dictionary(hostileString, hostileString, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 40 }), fc.constantFrom<'array' | 'object'>('array', 'object'))
      .map(([depth, shape]) => nested(depth, shape)),
  },
);

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=UTF-8',
  'Application/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json;',
  'application/json ; charset=utf-8',
  'application/json, text/plain',
  'application/jsonp',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'text/json',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'application/octet-stream',
  '*/*',
  'json',
  ' ',
];

/** How a request body goes on the wire; built lazily (sendable), so that samples stay small. */
export type BodySpec =
  | { kind: 'json'; value: unknown; contentType?: string }
  | { kind: 'raw'; text: string; contentType?: string }
  | { kind: 'bytes'; bytes: number[]; contentType?: string }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object'; contentType?: string }
  | { kind: 'huge'; shape: 'string' | 'array' | 'keys'; bytes: number; contentType?: string };

const RAW_BODIES = [
  '',
  ' ',
  'null',
  'true',
  '0',
  '1e999',
  '-0',
  '"text"',
  '[]',
  '{}',
  '[{}]',
  '{',
  '}',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}garbage',
  '{"a":1}{"b":2}',
  'NaN',
  'Infinity',
  '\ufeff{}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"type":"url","type":"text"}',
  '{"name":"\\ud800"}',
  '{"name":"\\u0000"}',
  '{"name":"\\udc00\\ud800"}',
  '{"name":"a\\u0000b","content":{"text":"\\u0000"}}',
  '{"qrcodes":[{"type":"text","content":{"text":"\\u0000"}}]}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":01}',
  'name=x&type=text',
  '--fuzz\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--fuzz--',
];

/** Byte sequences that are not UTF-8 (or are, but hurt): overlong, surrogate, truncated, NUL. */
const BAD_BYTES = [
  [0xff],
  [0xfe, 0xff],
  [0xc0, 0xaf],
  [0xc3, 0x28],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0x00],
  [0xe2, 0x80, 0xa8],
];

const optionalContentType = fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 8 });

/**
 * A body for a route whose good bodies are `structured`: mostly a structured (mutated) body as
 * JSON, sometimes under a wrong content type, sometimes not JSON, invalid UTF-8, deep or huge.
 */
export function bodyFor(structured: fc.Arbitrary<unknown>): fc.Arbitrary<BodySpec> {
  return fc.oneof(
    { weight: 30, arbitrary: structured.map((value): BodySpec => ({ kind: 'json', value, contentType: 'application/json' })) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(structured, fc.constantFrom(...CONTENT_TYPES))
        .map(([value, contentType]): BodySpec => ({ kind: 'json', value, contentType })),
    },
    { weight: 3, arbitrary: hostileValue.map((value): BodySpec => ({ kind: 'json', value, contentType: 'application/json' })) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...RAW_BODIES), hostileString), optionalContentType).map(([text, contentType]): BodySpec => ({
        kind: 'raw',
        text,
        contentType: contentType ?? 'application/json',
      })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.constantFrom(...BAD_BYTES), fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 12 })),
          fc.constantFrom('name', 'type', 'qrcodes', 'content'),
        )
        .map(([bytes, field]): BodySpec => ({
          kind: 'bytes',
          bytes: [...Buffer.from(`{"${field}":"`), ...bytes, ...Buffer.from('"}')],
          contentType: 'application/json',
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(31, 32, 33, 64, 1000, 100_000), fc.constantFrom<'array' | 'object'>('array', 'object'))
        .map(([depth, shape]): BodySpec => ({ kind: 'deep', depth, shape, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom<'string' | 'array' | 'keys'>('string', 'array', 'keys'), fc.constantFrom(200_000, 1_048_500, 1_048_600, 1_500_000))
        .map(([shape, bytes]): BodySpec => ({
          kind: 'huge',
          shape,
          bytes: shape === 'keys' ? Math.min(bytes, 200_000) : bytes,
          contentType: 'application/json',
        })),
    },
  );
}

/** The payload and content type of a body. */
export function sendable(body: BodySpec): { payload: string | Buffer; contentType?: string } {
  switch (body.kind) {
    case 'json':
      return { payload: JSON.stringify(body.value) ?? 'null', contentType: body.contentType };
    case 'raw':
      return { payload: body.text, contentType: body.contentType };
    case 'bytes':
      return { payload: Buffer.from(body.bytes), contentType: body.contentType };
    case 'deep': {
      const [open, close] = body.shape === 'array' ? ['[', ']'] : ['{"a":', '}'];
      return { payload: `${open.repeat(body.depth)}1${close.repeat(body.depth)}`, contentType: body.contentType };
    }
    case 'huge': {
      if (body.shape === 'string') return { payload: `{"name":"${'a'.repeat(body.bytes)}"}`, contentType: body.contentType };
      if (body.shape === 'array') return { payload: `{"qrcodes":[${'{},'.repeat(Math.floor(body.bytes / 3))}{}]}`, contentType: body.contentType };
      const keys = Array.from({ length: Math.floor(body.bytes / 12) }, (_, i) => `"k${i}":0`);
      return { payload: `{${keys.join(',')}}`, contentType: body.contentType };
    }
  }
}

/** A short, printable description of a body for failure messages. */
export function describeBody(body: BodySpec): string {
  if (body.kind === 'deep') return `${body.depth}-deep ${body.shape} (${body.contentType})`;
  if (body.kind === 'huge') return `huge ${body.shape} of ${body.bytes} bytes (${body.contentType})`;
  const { payload, contentType } = sendable(body);
  const text = Buffer.isBuffer(payload) ? `bytes ${payload.toString('hex')}` : payload;
  return `${JSON.stringify(text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text)} as ${contentType ?? 'no content type'}`;
}

/** One path change: set a (dotted) path of a body to a value, or remove it. */
export type Mutation = { path: string; remove: boolean; value: unknown };

/** Applies mutations to a copy of `base` (objects are created along the path where needed). */
export function mutate(base: unknown, mutations: Mutation[]): unknown {
  let root: unknown = structuredClone(base);
  for (const { path, remove, value } of mutations) {
    if (path === '') {
      root = value;
      continue;
    }
    if (root === null || typeof root !== 'object') root = {};
    const keys = path.split('.');
    let node = root as Record<string, unknown>;
    for (const key of keys.slice(0, -1)) {
      if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    const last = keys[keys.length - 1];
    // defineProperty: `__proto__` must become an own key that JSON.stringify writes out.
    if (remove) delete node[last];
    else Object.defineProperty(node, last, { value, enumerable: true, configurable: true, writable: true });
  }
  return root;
}

/**
 * Bodies made from valid `bases` with up to three mutations each: a known path (`paths`), a random
 * or poisonous key, set to a hostile value (or a plausible one for the path) or removed.
 */
export function mutatedBody(bases: unknown[], paths: string[], plausible: Record<string, fc.Arbitrary<unknown>> = {}): fc.Arbitrary<unknown> {
  const path = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...paths) },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'unknown_field', '', 'content.__proto__', 'style.__proto__') },
    { weight: 1, arbitrary: hostileString.filter((key) => key.length < 50 && !key.includes('.')) },
  );
  const mutation: fc.Arbitrary<Mutation> = path.chain((chosen) => {
    // hasOwn: the chosen path may be `__proto__` or `constructor`.
    const good = Object.hasOwn(plausible, chosen) ? plausible[chosen] : undefined;
    return fc.record({
      path: fc.constant(chosen),
      remove: fc.boolean().map((yes) => yes && chosen !== ''),
      value: good ? fc.oneof({ weight: 1, arbitrary: good }, { weight: 2, arbitrary: hostileValue }) : hostileValue,
    });
  });
  const mutated = fc.tuple(fc.constantFrom(...bases), fc.array(mutation, { maxLength: 3 })).map(([base, mutations]) => mutate(base, mutations));
  return fc.oneof({ weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: poisonedBody(bases) });
}

/** Text PostgreSQL cannot store (NUL), or that is not Unicode (lone surrogates). */
const POISON = ['\u0000', '\ud800', '\udfff', '\udc00\ud800', '\u0000\u0000'];

const POISONED = new WeakSet<object>();

/** Whether `value` came from poisonedBody: a body the service must refuse (or, as a bulk item, fail). */
export function isPoisoned(value: unknown): boolean {
  return value !== null && typeof value === 'object' && POISONED.has(value);
}

/** The paths of every string in `value` (its leaves), as key lists. */
function stringLeaves(value: unknown, path: string[] = []): string[][] {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => stringLeaves(child, [...path, key]));
}

/**
 * A valid body with NUL or a lone surrogate written into one of its strings (any depth), the rest
 * left valid: every string field is tried, not only those a random mutation happens to reach.
 */
export function poisonedBody(bases: unknown[]): fc.Arbitrary<unknown> {
  return fc.tuple(fc.constantFrom(...bases), fc.nat(), fc.constantFrom(...POISON), fc.nat()).map(([base, leaf, poison, at]) => {
    const body = structuredClone(base);
    const leaves = stringLeaves(body);
    if (leaves.length === 0 || body === null || typeof body !== 'object') return body;
    POISONED.add(body);
    const path = leaves[leaf % leaves.length];
    let node = body as Record<string, unknown>;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
    const last = path[path.length - 1];
    const text = node[last] as string;
    const position = at % (text.length + 1);
    node[last] = text.slice(0, position) + poison + text.slice(position);
    return body;
  });
}

/** Percent-encodes every UTF-16 unit of `text`, writing a lone surrogate as its 3-byte (WTF-8) form, which no UTF-8 decoder accepts. */
export function percentEncode(text: string): string {
  let encoded = '';
  for (const piece of text) {
    const code = piece.charCodeAt(0);
    if (piece.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      encoded += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((byte) => `%${byte.toString(16).toUpperCase()}`)
        .join('');
    } else encoded += encodeURIComponent(piece);
  }
  return encoded;
}

/** Percent-encodings that are broken or decode to trouble. */
export const BAD_PERCENT = [
  '%zz',
  '%',
  '%0',
  '%%',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%AF',
  '%FF',
  '%E0%A4%A',
  '%2F',
  '%2e%2e',
  '%252F',
  '%u0041',
  '%E2%80%A8',
  '%F4%90%80%80',
];

/** A path segment: mostly percent-encoded hostile text, or broken percent-encoding. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map(percentEncode) },
  { weight: 2, arbitrary: fc.constantFrom(...BAD_PERCENT) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.string({ unit: printableAscii, maxLength: 6 }).map(percentEncode), fc.constantFrom(...BAD_PERCENT)).map(([a, b]) => a + b),
  },
);

/** A query string of up to five pairs: known parameters (with plausible or hostile values), unknown or poisonous ones, repeated ones. */
export function queryString(plausible: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const known = Object.keys(plausible);
  const name = fc.oneof(
    { weight: known.length ? 8 : 0, arbitrary: known.length ? fc.constantFrom(...known) : fc.constant('x') },
    { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'page[]', 'a[b]', 'limit[0]', '', 'x') },
    { weight: 1, arbitrary: hostileSegment },
  );
  const pair = name.chain((key) => {
    const good = Object.hasOwn(plausible, key) ? plausible[key] : undefined;
    const value = fc.oneof(
      { weight: good ? 4 : 0, arbitrary: good ?? fc.constant('') },
      { weight: 3, arbitrary: hostileSegment },
      { weight: 1, arbitrary: fc.constantFrom('', '-1', '0', '1.5', '1e3', ' 1', '99999999999999999999', 'NaN', 'true', '%20', '+') },
    );
    return fc.tuple(fc.constant(key), value, fc.boolean()).map(([k, v, withValue]) => (withValue || v !== '' ? `${k}=${v}` : k));
  });
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

/** Header values a real client could send (visible ASCII, spaces, obs-text), some hostile. */
export const hostileHeaderValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('', ' ', 'a b', '<script>', '"quoted"', '%00', '../..', 'é', 'Ã©', '\u00ff\u00fe', '*'),
  fc.string({ unit: printableAscii, maxLength: 40 }),
  fc.integer({ min: 129, max: 9000 }).map((n) => 'h'.repeat(n)),
);
