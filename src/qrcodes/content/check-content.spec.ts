import { type FieldError } from '../../common/validation/field-error';
import { type ContentCheck, type QrType, checkContent, redirectHostAliases } from './index';

const OWN_HOSTS = redirectHostAliases(['r.example.com']);

function errorsOf(check: ContentCheck): FieldError[] {
  if (check.ok) throw new Error(`expected errors, got ${JSON.stringify(check)}`);
  return check.errors;
}

function accepted(check: ContentCheck): { content: Record<string, unknown>; contentString: string } {
  if (!check.ok) throw new Error(`expected success, got ${JSON.stringify(check.errors)}`);
  return { content: check.content, contentString: check.contentString };
}

/** One valid content object per type, the base for the rejection cases. */
const VALID: Record<QrType, Record<string, unknown>> = {
  url: { url: 'https://example.com/' },
  text: { text: 'Hello' },
  email: { to: 'hello@example.com' },
  phone: { number: '+4930123456' },
  sms: { number: '+4930123456' },
  wifi: { ssid: 'Home', password: 'secret123', encryption: 'WPA' },
  vcard: { first_name: 'Ada' },
  geo: { latitude: 52.52, longitude: 13.405 },
  event: { title: 'Launch', start: '2025-06-01T18:00:00Z' },
};
const TYPES = Object.keys(VALID) as QrType[];

describe('checkContent: accepted content is normalised and encoded', () => {
  test.each<[QrType, Record<string, unknown>, Record<string, unknown>, string]>([
    ['url', { url: '  https://example.com/a?b=1  ' }, { url: 'https://example.com/a?b=1' }, 'https://example.com/a?b=1'],
    ['url', { url: 'HTTP://Example.com/Path' }, { url: 'http://example.com/Path' }, 'http://example.com/Path'],
    [
      'url',
      { url: 'https://bücher.example/ä?q=ü' },
      { url: 'https://xn--bcher-kva.example/%C3%A4?q=%C3%BC' },
      'https://xn--bcher-kva.example/%C3%A4?q=%C3%BC',
    ],
    ['text', { text: '  indented\nsecond line ' }, { text: '  indented\nsecond line ' }, '  indented\nsecond line '],
    ['text', { text: '日本語 é 😀' }, { text: '日本語 é 😀' }, '日本語 é 😀'],
    ['email', { to: ' hello@example.com ', subject: '', body: '  ' }, { to: 'hello@example.com' }, 'mailto:hello@example.com'],
    [
      'email',
      { to: 'a@example.com', subject: 'Hi there', body: 'é' },
      { to: 'a@example.com', subject: 'Hi there', body: 'é' },
      'mailto:a@example.com?subject=Hi%20there&body=%C3%A9',
    ],
    ['phone', { number: '+49 (30) 123-456' }, { number: '+49 (30) 123-456' }, 'tel:+4930123456'],
    ['sms', { number: '+1 555 0100', message: 'Hi: you' }, { number: '+1 555 0100', message: 'Hi: you' }, 'SMSTO:+15550100:Hi: you'],
    [
      'wifi',
      { ssid: 'Home', password: 'secret', encryption: 'WPA' },
      { ssid: 'Home', password: 'secret', encryption: 'WPA' },
      'WIFI:T:WPA;S:Home;P:secret;;',
    ],
    [
      'wifi',
      { ssid: ' Café ', encryption: 'nopass', password: '', hidden: true },
      { ssid: ' Café ', encryption: 'nopass', hidden: true },
      'WIFI:T:nopass;S: Café ;H:true;;',
    ],
    [
      'vcard',
      { last_name: ' Lovelace ', first_name: '', address: { city: 'London', street: '' }, note: undefined },
      { last_name: 'Lovelace', address: { city: 'London' } },
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;;;;\r\nFN:Lovelace\r\nADR:;;;London;;;\r\nEND:VCARD\r\n',
    ],
    [
      'vcard',
      { first_name: 'Ada', address: { street: ' ' } },
      { first_name: 'Ada' },
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Ada;;;\r\nFN:Ada\r\nEND:VCARD\r\n',
    ],
    ['geo', { latitude: -33.8688, longitude: 151.2093 }, { latitude: -33.8688, longitude: 151.2093 }, 'geo:-33.8688,151.2093'],
    ['geo', { latitude: 90, longitude: -180 }, { latitude: 90, longitude: -180 }, 'geo:90,-180'],
    [
      'event',
      { title: 'Launch', start: '2025-06-01T20:00:00+02:00', end: '2025-06-01T22:00:00+02:00', location: '' },
      { title: 'Launch', start: '2025-06-01T20:00:00+02:00', end: '2025-06-01T22:00:00+02:00' },
      'BEGIN:VEVENT\r\nSUMMARY:Launch\r\nDTSTART:20250601T180000Z\r\nDTEND:20250601T200000Z\r\nEND:VEVENT\r\n',
    ],
  ])('%s %j', (type, raw, content, contentString) => {
    expect(accepted(checkContent(type, raw, { ownHosts: OWN_HOSTS }))).toEqual({ content, contentString });
  });

  test('a content object without prototype is accepted', () => {
    const raw = Object.assign(Object.create(null) as Record<string, unknown>, { text: 'x' });
    expect(accepted(checkContent('text', raw)).contentString).toBe('x');
  });
});

describe('checkContent: content that is not an object', () => {
  test.each([null, undefined, [], [{ url: 'https://example.com/' }], 'https://example.com/', 42, true, new Date(0)])('%p', (raw) => {
    expect(errorsOf(checkContent('url', raw))).toEqual([{ field: 'content', message: 'content must be an object' }]);
  });
});

describe('checkContent: unknown fields are rejected, not kept', () => {
  test.each(TYPES)('%s with an extra field', (type) => {
    expect(errorsOf(checkContent(type, { ...VALID[type], foo: 'bar' }))).toEqual([
      { field: 'content.foo', message: 'content.foo is not an allowed field' },
    ]);
  });

  test.each(['__proto__', 'constructor', 'prototype', 'hasOwnProperty'])('a key named %s', (key) => {
    const raw = JSON.parse(`{"url":"https://example.com/",${JSON.stringify(key)}:{"polluted":true}}`) as unknown;
    expect(errorsOf(checkContent('url', raw))).toEqual([{ field: `content.${key}`, message: `content.${key} is not an allowed field` }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an unknown field inside the vCard address', () => {
    expect(errorsOf(checkContent('vcard', { first_name: 'A', address: { city: 'X', planet: 'Mars' } }))).toEqual([
      { field: 'content.address.planet', message: 'content.address.planet is not an allowed field' },
    ]);
  });

  test('a field of another type', () => {
    expect(errorsOf(checkContent('url', { url: 'https://example.com/', text: 'hi' }))).toEqual([
      { field: 'content.text', message: 'content.text is not an allowed field' },
    ]);
  });
});

describe('checkContent: missing required fields', () => {
  test.each<[QrType, Record<string, unknown>, string, RegExp]>([
    ['url', {}, 'content.url', /is required/],
    ['text', {}, 'content.text', /is required/],
    ['text', { text: '' }, 'content.text', /must not be empty/],
    ['text', { text: ' \n\t ' }, 'content.text', /must not be empty/],
    ['email', { subject: 'Hi' }, 'content.to', /is required/],
    ['phone', { number: '   ' }, 'content.number', /must not be empty/],
    ['sms', { message: 'Hi' }, 'content.number', /is required/],
    ['wifi', { password: 'x', encryption: 'WPA' }, 'content.ssid', /is required/],
    ['wifi', { ssid: 'Home', password: 'x' }, 'content.encryption', /is required/],
    ['wifi', { ssid: 'Home', encryption: 'WPA' }, 'content.password', /required unless content.encryption is nopass/],
    ['wifi', { ssid: 'Home', encryption: 'WEP', password: '' }, 'content.password', /required unless content.encryption is nopass/],
    ['vcard', { organization: 'ACME' }, 'content.first_name', /^content.first_name or content.last_name is required$/],
    ['vcard', { first_name: ' ', last_name: '' }, 'content.first_name', /or content.last_name is required/],
    ['geo', { latitude: 1 }, 'content.longitude', /is required/],
    ['geo', { longitude: 1 }, 'content.latitude', /is required/],
    ['event', { start: '2025-06-01T18:00:00Z' }, 'content.title', /is required/],
    ['event', { title: 'Launch' }, 'content.start', /is required/],
    ['url', { url: null }, 'content.url', /is required/],
  ])('%s %j', (type, raw, field, message) => {
    expect(errorsOf(checkContent(type, raw))).toEqual([{ field, message: expect.stringMatching(message) }]);
  });
});

describe('checkContent: null is refused, not read as left out', () => {
  test.each<[QrType, Record<string, unknown>, string, RegExp]>([
    ['email', { to: 'hello@example.com', body: null }, 'content.body', /must be a string/],
    ['vcard', { first_name: 'Ada', last_name: null }, 'content.last_name', /must be a string/],
    ['vcard', { first_name: null, last_name: 'Lovelace' }, 'content.first_name', /must not be null/],
    ['vcard', { first_name: 'Ada', address: null }, 'content.address', /must be an object/],
    ['wifi', { ssid: 'Home', encryption: 'nopass', password: null }, 'content.password', /must not be null/],
    ['wifi', { ssid: 'Home', encryption: 'WPA', password: 'x', hidden: null }, 'content.hidden', /must be a boolean/],
  ])('%s %j', (type, raw, field, message) => {
    expect(errorsOf(checkContent(type, raw))).toEqual([{ field, message: expect.stringMatching(message) }]);
  });
});

describe('checkContent: wrong types', () => {
  test.each<[QrType, Record<string, unknown>, string, string]>([
    ['url', { url: 5 }, 'content.url', 'content.url must be a string'],
    ['url', { url: { href: 'https://example.com/' } }, 'content.url', 'content.url must be a string'],
    ['text', { text: true }, 'content.text', 'content.text must be a string'],
    ['text', { text: ['a'] }, 'content.text', 'content.text must be a string'],
    ['email', { to: 'a@example.com', subject: 5 }, 'content.subject', 'content.subject must be a string'],
    ['phone', { number: 4930123456 }, 'content.number', 'content.number must be a string'],
    ['wifi', { ssid: 'Home', password: 'pw', encryption: 'WPA', hidden: 'true' }, 'content.hidden', 'content.hidden must be a boolean'],
    ['wifi', { ssid: 'Home', password: 'pw', encryption: 'WPA2' }, 'content.encryption', 'content.encryption must be one of WPA, WEP, nopass'],
    ['wifi', { ssid: 'Home', password: 'pw', encryption: 'wpa' }, 'content.encryption', 'content.encryption must be one of WPA, WEP, nopass'],
    ['vcard', { first_name: 'A', address: 'London' }, 'content.address', 'content.address must be an object'],
    ['vcard', { first_name: 'A', address: [{ city: 'London' }] }, 'content.address', 'content.address must be an object'],
    ['vcard', { first_name: 'A', address: { city: 7 } }, 'content.address.city', 'content.address.city must be a string'],
    ['geo', { latitude: '52.52', longitude: 13.4 }, 'content.latitude', 'content.latitude must be a number'],
    ['geo', { latitude: 52.52, longitude: NaN }, 'content.longitude', 'content.longitude must be a number'],
    ['geo', { latitude: Infinity, longitude: 1 }, 'content.latitude', 'content.latitude must be a number'],
    ['event', { title: 'A', start: 1748800800000 }, 'content.start', 'content.start must be a string'],
  ])('%s %j', (type, raw, field, message) => {
    expect(errorsOf(checkContent(type, raw))).toEqual([{ field, message }]);
  });
});

describe('checkContent: invalid values', () => {
  test.each<[QrType, Record<string, unknown>, string, RegExp]>([
    ['email', { to: 'not-an-email' }, 'content.to', /must be an email address/],
    ['email', { to: 'a@example.com', subject: 'line 1\nline 2' }, 'content.subject', /single line/],
    ['phone', { number: '12' }, 'content.number', /must be a phone number/],
    ['phone', { number: '+49 30 CALL-ME' }, 'content.number', /must be a phone number/],
    ['sms', { number: 'tel:+4930123456' }, 'content.number', /must be a phone number/],
    ['wifi', { ssid: 'Cafe', encryption: 'nopass', password: 'secret' }, 'content.password', /must be empty when content.encryption is nopass/],
    ['vcard', { first_name: 'A', phone: 'call me' }, 'content.phone', /must be a phone number/],
    ['vcard', { first_name: 'A', mobile: '+44 7700 9OOOOO' }, 'content.mobile', /must be a phone number/],
    ['vcard', { first_name: 'A', email: 'ada@' }, 'content.email', /must be an email address/],
    ['vcard', { first_name: 'A', website: 'javascript:alert(1)' }, 'content.website', /http or https/],
    ['geo', { latitude: 90.0001, longitude: 0 }, 'content.latitude', /between -90 and 90/],
    ['geo', { latitude: -91, longitude: 0 }, 'content.latitude', /between -90 and 90/],
    ['geo', { latitude: 0, longitude: 180.5 }, 'content.longitude', /between -180 and 180/],
    ['geo', { latitude: 0, longitude: -181 }, 'content.longitude', /between -180 and 180/],
    ['event', { title: 'A', start: '2025-06-01' }, 'content.start', /ISO 8601 date-time/],
    ['event', { title: 'A', start: 'next Friday' }, 'content.start', /ISO 8601 date-time/],
    ['event', { title: 'A', start: '2025-02-30T10:00:00Z' }, 'content.start', /ISO 8601 date-time/],
    ['event', { title: 'A', start: '2025-06-01T18:00:00Z', end: '2025-06-01T25:00:00Z' }, 'content.end', /ISO 8601 date-time/],
    ['event', { title: 'A', start: '2025-06-01T18:00:00Z', end: '2025-06-01T17:59:59Z' }, 'content.end', /^content.end must be after content.start$/],
    ['event', { title: 'A', start: '2025-06-01T18:00:00Z', end: '2025-06-01T20:00:00+02:00' }, 'content.end', /must be after content.start/],
  ])('%s %j', (type, raw, field, message) => {
    expect(errorsOf(checkContent(type, raw))).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  test('every failing field is reported, each once', () => {
    const errors = errorsOf(checkContent('vcard', { first_name: 5, email: 'x', address: { city: 1, postcode: 2 }, fax: '1' }));
    expect(errors.map((error) => error.field).sort()).toEqual(
      ['content.address.city', 'content.address.postcode', 'content.email', 'content.fax', 'content.first_name'].sort(),
    );
  });
});

describe('checkContent: over-long values', () => {
  test.each<[string, RegExp, QrType, Record<string, unknown>]>([
    ['content.url', /at most 2048 characters/, 'url', { url: `https://example.com/${'a'.repeat(2029)}` }],
    ['content.text', /at most 2000 characters/, 'text', { text: 'a'.repeat(2001) }],
    ['content.to', /at most 254 characters/, 'email', { to: `${'a'.repeat(250)}@example.com` }],
    ['content.subject', /at most 255 characters/, 'email', { to: 'a@example.com', subject: 's'.repeat(256) }],
    ['content.body', /at most 2000 characters/, 'email', { to: 'a@example.com', body: 'b'.repeat(2001) }],
    ['content.number', /at most 32 characters/, 'phone', { number: '1'.repeat(33) }],
    ['content.message', /at most 1000 characters/, 'sms', { number: '+4930123456', message: 'm'.repeat(1001) }],
    ['content.ssid', /at most 32 characters/, 'wifi', { ssid: 's'.repeat(33), password: 'pw', encryption: 'WPA' }],
    ['content.ssid', /at most 32 bytes in UTF-8/, 'wifi', { ssid: 'é'.repeat(17), password: 'pw', encryption: 'WPA' }],
    ['content.password', /at most 64 characters/, 'wifi', { ssid: 'Home', password: 'p'.repeat(65), encryption: 'WPA' }],
    ['content.first_name', /at most 100 characters/, 'vcard', { first_name: 'f'.repeat(101) }],
    ['content.last_name', /at most 100 characters/, 'vcard', { last_name: 'l'.repeat(101) }],
    ['content.organization', /at most 200 characters/, 'vcard', { first_name: 'A', organization: 'o'.repeat(201) }],
    ['content.address.postcode', /at most 20 characters/, 'vcard', { first_name: 'A', address: { postcode: '1'.repeat(21) } }],
    ['content.note', /at most 2000 characters/, 'vcard', { first_name: 'A', note: 'n'.repeat(2001) }],
    ['content.title', /at most 255 characters/, 'event', { title: 't'.repeat(256), start: '2025-06-01T18:00:00Z' }],
    ['content.description', /at most 2000 characters/, 'event', { title: 'A', start: '2025-06-01T18:00:00Z', description: 'd'.repeat(2001) }],
  ])('%s: %s', (field, message, type, raw) => {
    expect(errorsOf(checkContent(type, raw))).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  test('values at the limit are accepted', () => {
    expect(checkContent('text', { text: 'a'.repeat(2000) }).ok).toBe(true);
    expect(checkContent('wifi', { ssid: 'é'.repeat(16), password: 'p'.repeat(64), encryption: 'WPA' }).ok).toBe(true);
  });
});

describe('checkContent: url safety', () => {
  test.each([
    ['javascript:alert(1)', /http or https/],
    ['JaVaScRiPt:alert(1)', /http or https/],
    ['java\tscript:alert(1)', /control characters/],
    ['data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', /http or https/],
    ['vbscript:msgbox(1)', /http or https/],
    ['file:///etc/passwd', /http or https/],
    ['ftp://example.com/file', /http or https/],
    ['https://user:pass@example.com/', /user name or password/],
    ['https://user@example.com/', /user name or password/],
    ['example.com/path', /http or https/],
    ['https://r.example.com/r/abc123', /own links/],
    ['http://R.EXAMPLE.COM/r/abc123', /own links/],
  ])('refuses %j', (url, message) => {
    expect(errorsOf(checkContent('url', { url }, { ownHosts: OWN_HOSTS }))).toEqual([
      { field: 'content.url', message: expect.stringMatching(new RegExp(`^content\\.url .*${message.source}`)) },
    ]);
  });

  test.each(['http://example.com', 'https://example.com/path?q=1#top', 'https://r.example.com:8443/', 'https://sub.r.example.com/'])(
    'accepts %s',
    (url) => {
      const href = new URL(url).href;
      expect(accepted(checkContent('url', { url }, { ownHosts: OWN_HOSTS }))).toEqual({ content: { url: href }, contentString: href });
    },
  );

  test('without own hosts, any safe http(s) target is accepted', () => {
    expect(checkContent('url', { url: 'https://r.example.com/r/abc123' }).ok).toBe(true);
  });
});

describe('checkContent never throws', () => {
  test('a declared field holding a value nested far too deep', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let level = 0; level < 100_000; level += 1) {
      deep.a = {};
      deep = deep.a as Record<string, unknown>;
    }
    expect(checkContent('url', { url: root }).ok).toBe(false);
  });

  test('an unknown field holding a value nested far too deep is reported without walking it', () => {
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let level = 0; level < 100_000; level += 1) {
      deep.a = {};
      deep = deep.a as Record<string, unknown>;
    }
    expect(errorsOf(checkContent('text', { text: 'x', extra: root }))).toEqual([
      { field: 'content.extra', message: 'content.extra is not an allowed field' },
    ]);
  });

  test('a getter that throws', () => {
    const raw = Object.defineProperty({}, 'url', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(errorsOf(checkContent('url', raw))).toEqual([{ field: 'content', message: 'content could not be read' }]);
  });

  test('a type that is not a QR type', () => {
    expect(errorsOf(checkContent('barcode' as QrType, { url: 'https://example.com/' }))).toEqual([
      { field: 'type', message: expect.stringContaining('must be one of url, text, email') },
    ]);
  });
});
