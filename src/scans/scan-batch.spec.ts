import { scanEvent as event, IPHONE_AGENT as IPHONE, SCANNED_CODE as CODE, TEST_VISITORS } from './__fixtures__/scan-events';
import {
  copyField,
  decodeStagedBatch,
  encodeStagedBatch,
  readRowsOf,
  rowKeysOf,
  rowsMatchHeader,
  SCAN_EVENT_COLUMNS,
  type ScanBatch,
  ScanBatchWriter,
  sumByCode,
} from './scan-batch';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { ScanEvent } from './scan-event';
import { dailyVisitorKey, visitorHash } from './visitor-hash';

/** What randomUUID draws: event ids are made by the batch writer. */
const RANDOM_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const OTHER = '5f0c6d7e-0000-4000-8000-0000000000c1' as QrCodeId;

/** Reads COPY text rows back the way PostgreSQL does (text format, tab-separated, `\N` null). */
function parseCopyRows(rows: string): Array<Record<string, string | null>> {
  const unescape = (field: string) =>
    field === '\\N' ? null : field.replace(/\\(.)/g, (_m, c: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[c] ?? c);
  return rows
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => Object.fromEntries(line.split('\t').map((field, i) => [SCAN_EVENT_COLUMNS[i], unescape(field)])));
}
const rowsOf = (events: ScanEvent[], writer = new ScanBatchWriter(TEST_VISITORS)) => parseCopyRows(writer.write(events).rows as string);

describe('copyField', () => {
  it.each([
    ['plain text', 'https://example.com/a?b=c', 'https://example.com/a?b=c'],
    ['null', null, '\\N'],
    ['the text \\N (not null)', '\\N', '\\\\N'],
    ['tab, newline, carriage return, backslash', 'a\tb\nc\rd\\e', 'a\\tb\\nc\\rd\\\\e'],
    ['NUL, which PostgreSQL text cannot hold', 'a\0b', 'ab'],
    ['non-ASCII text', 'https://例え.jp/ページ?q=😀', 'https://例え.jp/ページ?q=😀'],
    ['an empty string (not null)', '', ''],
  ])('writes %s', (_label, value, expected) => {
    expect(copyField(value)).toBe(expected);
  });
});

describe('ScanBatchWriter', () => {
  it("hashes each scan's visitor as the batch is written: the IP is in no row", () => {
    const rows = rowsOf([event({ ip: '198.51.100.23' }), event({ ip: '2001:db8::7', userAgent: null })]);
    expect(rows.map((row) => row.visitor_hash)).toEqual([
      visitorHash(dailyVisitorKey('test-visitor-secret', event().at), '198.51.100.23', IPHONE),
      visitorHash(dailyVisitorKey('test-visitor-secret', event().at), '2001:db8::7', null),
    ]);
    const text = new ScanBatchWriter(TEST_VISITORS).write([event({ ip: '198.51.100.23' })]).rows as string;
    expect(text).not.toContain('198.51.100.23');
  });

  it('writes each event as one row in the column order of SCAN_EVENT_COLUMNS, with its user agent classified', () => {
    expect(rowsOf([event()])).toEqual([
      {
        // Drawn as the batch is written (scan-event.ts).
        event_id: expect.stringMatching(RANDOM_UUID) as string,
        qr_code_id: CODE,
        scanned_at: '2026-11-22T09:30:00.123Z',
        referrer: 'https://news.example/a?b="c"',
        visitor_hash: visitorHash(dailyVisitorKey('test-visitor-secret', event().at), '203.0.113.9', IPHONE),
        user_agent: IPHONE,
        device: 'mobile',
        os: 'iOS',
        browser: 'Mobile Safari',
        is_bot: 'f',
        country: 'DE',
        city: 'Berlin',
        rule_index: null,
        arm_index: null,
      },
    ]);
  });

  it.each([
    ['a bot', { isBot: true, userAgent: 'Slackbot-LinkExpanding 1.0' }, { device: 'bot', is_bot: 't' }],
    ['no user agent', { userAgent: null }, { device: 'other', os: 'unknown', browser: 'unknown', user_agent: null }],
    ['no referrer', { referrer: null }, { referrer: null }],
    [
      'tabs, newlines and backslashes (no field or row can be forged)',
      { userAgent: 'x\ty\\z\n\u0001', referrer: 'a\tt\nb' },
      { user_agent: 'x\ty\\z\n\u0001', referrer: 'a\tt\nb', is_bot: 'f' },
    ],
    ['non-ASCII text', { referrer: 'https://例え.jp/ページ?q=😀' }, { referrer: 'https://例え.jp/ページ?q=😀' }],
    ['no place', { country: null, city: null }, { country: null, city: null }],
    ['a country without a city', { country: 'BR', city: null }, { country: 'BR', city: null }],
    ['a city that needs escaping', { city: 'Sāo\tPaulo\\東京' }, { country: 'DE', city: 'Sāo\tPaulo\\東京' }],
  ])('writes %s so that it reads back exactly', (_label, overrides, expected) => {
    const rows = rowsOf([event(overrides)]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(expected);
  });

  it('counts scans (not bots) and rows per code, and gives every batch its own id', () => {
    const writer = new ScanBatchWriter(TEST_VISITORS);
    const batch = writer.write([event(), event({ isBot: true }), event({ codeId: OTHER }), event()]);
    expect(batch.codes).toEqual([
      { codeId: CODE, scans: 2, rows: 3 },
      { codeId: OTHER, scans: 1, rows: 1 },
    ]);
    expect(batch.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(writer.write([event()]).id).not.toBe(batch.id);
  });

  it('writes an empty batch with no rows and no codes', () => {
    expect(new ScanBatchWriter(TEST_VISITORS).write([])).toMatchObject({ codes: [], rows: '' });
  });

  it('gives each event its own time, also when times repeat and come back', () => {
    const times = [0, 0, 1, 0].map((ms) => Date.UTC(2026, 0, 1, 0, 0, 0, ms));
    expect(rowsOf(times.map((at) => event({ at }))).map((row) => row.scanned_at)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.001Z',
      '2026-01-01T00:00:00.000Z',
    ]);
  });

  it('keeps a user agent seen as a bot and as a person apart, across batches', () => {
    const writer = new ScanBatchWriter(TEST_VISITORS);
    expect(rowsOf([event(), event({ isBot: true })], writer).map((row) => [row.device, row.is_bot])).toEqual([
      ['mobile', 'f'],
      ['bot', 't'],
    ]);
    expect(rowsOf([event({ isBot: true }), event()], writer).map((row) => [row.device, row.is_bot])).toEqual([
      ['bot', 't'],
      ['mobile', 'f'],
    ]);
  });
});

describe('staged batch entries', () => {
  it('read back as the batch written: id, counts, and the rows byte for byte', () => {
    const batch = new ScanBatchWriter(TEST_VISITORS).write([event({ referrer: 'https://例え.jp/\t\n' }), event({ isBot: true })]);
    const decoded = decodeStagedBatch(Buffer.from(encodeStagedBatch(batch)));
    expect(decoded.id).toBe(batch.id);
    expect(decoded.codes).toEqual(batch.codes);
    expect(decoded.rows.toString()).toBe(batch.rows);
  });

  it('say how many columns their rows fill; an entry staged before scans had a place (no count) fills the first ten', () => {
    const batch = new ScanBatchWriter(TEST_VISITORS).write([event()]);
    expect(batch.columns).toBe(SCAN_EVENT_COLUMNS.length);
    expect(decodeStagedBatch(Buffer.from(encodeStagedBatch(batch))).columns).toBe(SCAN_EVENT_COLUMNS.length);
    const earlier = decodeStagedBatch(Buffer.from(`{"id":"${OTHER}","codes":[]}\n`));
    expect(earlier.columns).toBe(10);
    expect(SCAN_EVENT_COLUMNS.slice(0, 10)).not.toContain('country');
  });

  it('read back an empty batch', () => {
    const batch = new ScanBatchWriter(TEST_VISITORS).write([]);
    expect(decodeStagedBatch(Buffer.from(encodeStagedBatch(batch)))).toMatchObject({ id: batch.id, codes: [], rows: Buffer.alloc(0) });
  });

  it.each([
    ['no header line', 'just text'],
    ['a header that is not JSON', 'nope\nrows'],
    ['no id', '{"codes":[]}\n'],
    ['an id that is not a UUID', '{"id":"x","codes":[]}\n'],
    ['a code id that is not a UUID', `{"id":"${CODE}","codes":[["x';--",1,1]]}\n`],
    ['more scans than rows', `{"id":"${CODE}","codes":[["${OTHER}",2,1]]}\n`],
    ['a negative count', `{"id":"${CODE}","codes":[["${OTHER}",-1,1]]}\n`],
    ['a JSON array (the previous queue format)', '[{"event_id":"x"}]'],
    ['an id in upper case (a store compares ids as Postgres prints them)', `{"id":"${CODE.toUpperCase()}","codes":[]}\n`],
    ['fewer columns than any version wrote', `{"id":"${CODE}","codes":[],"columns":9}\n`],
    ['more columns than this version knows (staged by a newer one)', `{"id":"${CODE}","codes":[],"columns":${SCAN_EVENT_COLUMNS.length + 1}}\n`],
  ])('refuse an entry with %s', (_label, entry) => {
    expect(() => decodeStagedBatch(Buffer.from(entry))).toThrow();
  });
});

describe('rowsMatchHeader', () => {
  const entry = (rows: string, counted: number) =>
    decodeStagedBatch(Buffer.from(`{"id":"${CODE}","codes":[["${OTHER}",${counted},${counted}]]}\n${rows}`));

  it.each([
    ['as many rows as counted', 'row\nrow\n', 2, true],
    ['fewer rows than counted', 'row\n', 2, false],
    ['more rows than counted', 'row\nrow\nrow\n', 2, false],
    ['a last row without its newline', 'row\nrow', 2, false],
  ])('%s: %s', (_label, rows, counted, expected) => {
    expect(rowsMatchHeader(entry(rows, counted))).toBe(expected);
  });

  it('holds for every batch the writer writes, escaped newlines included', () => {
    const batch = new ScanBatchWriter(TEST_VISITORS).write([event({ referrer: 'a\nb' }), event({ userAgent: 'x\r\ny' })]);
    expect(rowsMatchHeader(batch)).toBe(true);
  });
});

describe('sumByCode', () => {
  it('adds up scans and rows of each code across batches', () => {
    const batches: ScanBatch[] = [
      {
        id: 'a',
        rows: '',
        columns: SCAN_EVENT_COLUMNS.length,
        codes: [
          { codeId: CODE, scans: 1, rows: 2 },
          { codeId: OTHER, scans: 0, rows: 1 },
        ],
      },
      { id: 'b', rows: '', columns: SCAN_EVENT_COLUMNS.length, codes: [{ codeId: CODE, scans: 3, rows: 3 }] },
    ];
    expect([...sumByCode(batches).values()]).toEqual([
      { codeId: CODE, scans: 4, rows: 5 },
      { codeId: OTHER, scans: 0, rows: 1 },
    ]);
    expect(batches[0].codes[0]).toEqual({ codeId: CODE, scans: 1, rows: 2 }); // inputs untouched
  });
});

describe('readRowsOf', () => {
  const OTHER = '22222222-2222-4222-8222-222222222222' as QrCodeId;

  it('reads back the rows of the asked codes, escapes undone, whether the rows are text or staged bytes', () => {
    const batch = new ScanBatchWriter(TEST_VISITORS).write([
      event({ referrer: 'https://a.example/x\ty\nz' }),
      event({ codeId: OTHER }),
      event({ referrer: null, isBot: true, userAgent: 'Slackbot-LinkExpanding 1.0' }),
    ]);
    const rows = readRowsOf(batch, new Set([CODE]));
    expect(rows.map((row) => [row.codeId, row.referrer, row.isBot])).toEqual([
      [CODE, 'https://a.example/x\ty\nz', false],
      [CODE, null, true],
    ]);
    // Each row's event id is drawn as the batch is written: a UUID, one per scan.
    const ids = readRowsOf(batch, new Set([CODE, OTHER])).map((row) => row.eventId);
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(RANDOM_UUID);
    expect(new Set(ids).size).toBe(3);
    expect(rows[0]).toMatchObject({ device: 'mobile', os: 'iOS', browser: 'Mobile Safari', visitorHash: expect.any(String) as string });
    expect(rows[0].scannedAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(readRowsOf(decodeStagedBatch(Buffer.from(encodeStagedBatch(batch))), new Set([CODE]))).toEqual(rows);
    expect(readRowsOf(batch, new Set())).toEqual([]);
  });

  it("reads each row's place, and none from a batch staged before scans had one", () => {
    const batch = new ScanBatchWriter(TEST_VISITORS).write([
      event(),
      event({ country: 'JP', city: 'Tō\tkyō' }),
      event({ country: null, city: null }),
      event({ codeId: OTHER, country: 'FR', city: 'Paris' }),
    ]);
    expect(readRowsOf(batch, new Set([CODE, OTHER])).map((row) => [row.country, row.city])).toEqual([
      ['DE', 'Berlin'],
      ['JP', 'Tō\tkyō'],
      [null, null],
      ['FR', 'Paris'],
    ]);
    // The same rows as an earlier version staged them: the first ten columns.
    const text = batch.rows as string;
    const earlierRows = text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => `${line.split('\t').slice(0, 10).join('\t')}\n`)
      .join('');
    const earlier = decodeStagedBatch(
      Buffer.from(`{"id":"${batch.id}","codes":${JSON.stringify(batch.codes.map((c) => [c.codeId, c.scans, c.rows]))}}\n${earlierRows}`),
    );
    expect(rowsMatchHeader(earlier)).toBe(true);
    const read = readRowsOf(earlier, new Set([CODE]));
    expect(read.map((row) => [row.isBot, row.browser, row.country, row.city])).toEqual([
      [false, 'Mobile Safari', null, null],
      [false, 'Mobile Safari', null, null],
      [false, 'Mobile Safari', null, null],
    ]);
  });
});

describe('rowKeysOf', () => {
  it("names each row by its event id, the batch's codes and the span of its times, in either form of the rows", () => {
    const batch = new ScanBatchWriter(TEST_VISITORS).write([
      event({ at: Date.parse('2026-11-02T10:00:00.500Z') }),
      event({ codeId: OTHER, at: Date.parse('2026-11-01T23:59:59.999Z'), referrer: 'https://a.example/\tx' }),
      event({ at: Date.parse('2026-11-03T00:00:00.000Z') }),
    ]);
    const written = parseCopyRows(batch.rows as string);
    const expected = {
      batchId: batch.id,
      rows: 3,
      codeIds: [CODE, OTHER],
      eventIds: written.map((row) => row.event_id),
      firstAt: '2026-11-01T23:59:59.999Z',
      lastAt: '2026-11-03T00:00:00.000Z',
    };
    expect(rowKeysOf(batch)).toEqual(expected);
    expect(rowKeysOf({ ...batch, rows: Buffer.from(batch.rows) })).toEqual(expected);
  });

  it('is null for a batch without rows', () => {
    expect(rowKeysOf({ id: '00000000-0000-4000-8000-000000000001', codes: [], rows: '', columns: SCAN_EVENT_COLUMNS.length })).toBeNull();
  });
});
