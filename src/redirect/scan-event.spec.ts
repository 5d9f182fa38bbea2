import { ScanEvent, StoredScan, StoredScanWriter } from './scan-event';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const event = (overrides: Partial<ScanEvent> = {}): ScanEvent => ({
  eventId: '5f0c6d7e-0000-4000-8000-000000000001',
  codeId: '5f0c6d7e-0000-4000-8000-0000000000c0',
  at: Date.UTC(2026, 10, 22, 9, 30, 0, 123),
  userAgent: IPHONE,
  referrer: 'https://news.example/a?b="c"',
  visitorHash: 'f'.repeat(32),
  isBot: false,
  ...overrides,
});
const stored = (events: ScanEvent[], writer = new StoredScanWriter()) => JSON.parse(writer.toJsonArray(events)) as StoredScan[];

describe('StoredScanWriter', () => {
  it('writes each event in the column names of scan_events, with its user agent classified', () => {
    expect(stored([event()])).toEqual([
      {
        event_id: '5f0c6d7e-0000-4000-8000-000000000001',
        qr_code_id: '5f0c6d7e-0000-4000-8000-0000000000c0',
        scanned_at: '2026-11-22T09:30:00.123Z',
        user_agent: IPHONE,
        referrer: 'https://news.example/a?b="c"',
        device: 'mobile',
        os: 'iOS',
        browser: 'Mobile Safari',
        visitor_hash: 'f'.repeat(32),
        is_bot: false,
      },
    ]);
  });

  it('writes an empty batch as an empty array', () => {
    expect(new StoredScanWriter().toJsonArray([])).toBe('[]');
  });

  it.each([
    ['a bot', { isBot: true, userAgent: 'Slackbot-LinkExpanding 1.0' }, { device: 'bot', is_bot: true }],
    ['no user agent', { userAgent: null }, { device: 'other', os: 'unknown', browser: 'unknown', user_agent: null }],
    ['no referrer', { referrer: null }, { referrer: null }],
    ['a desktop browser', { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36' }, { device: 'desktop', os: 'Windows', browser: 'Chrome' }],
    ['quotes, backslashes and control characters', { userAgent: 'x"y\\z\n\u0001', referrer: '"},{"is_bot":true' }, { user_agent: 'x"y\\z\n\u0001', referrer: '"},{"is_bot":true', is_bot: false }],
    ['non-ASCII text', { referrer: 'https://例え.jp/ページ?q=😀' }, { referrer: 'https://例え.jp/ページ?q=😀' }],
    ['a value of another format (a legacy queue entry without a code id)', { codeId: undefined as unknown as string }, { qr_code_id: null }],
  ])('writes %s as valid JSON', (_label, overrides, expected) => {
    expect(stored([event(overrides)])[0]).toMatchObject(expected);
  });

  it('gives each event its own time, also when times repeat and come back', () => {
    const times = [0, 0, 1, 0].map((ms) => Date.UTC(2026, 0, 1, 0, 0, 0, ms));
    expect(stored(times.map((at) => event({ at }))).map((scan) => scan.scanned_at)).toEqual([
      '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.001Z', '2026-01-01T00:00:00.000Z',
    ]);
  });

  it('keeps a user agent seen as a bot and as a person apart, across batches', () => {
    const writer = new StoredScanWriter();
    expect(stored([event(), event({ isBot: true })], writer).map((scan) => [scan.device, scan.is_bot])).toEqual([['mobile', false], ['bot', true]]);
    expect(stored([event({ isBot: true }), event()], writer).map((scan) => [scan.device, scan.is_bot])).toEqual([['bot', true], ['mobile', false]]);
  });
});
