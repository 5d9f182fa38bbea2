import { scanEvent as event, IPHONE_AGENT as IPHONE } from './__fixtures__/scan-events';
import { ScanEvent, StoredScan, storedScansJson } from './scan-event';

const stored = (events: ScanEvent[]) => JSON.parse(storedScansJson(events)) as StoredScan[];

describe('storedScansJson (earlier versions\' queues)', () => {
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
    expect(storedScansJson([])).toBe('[]');
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
});
