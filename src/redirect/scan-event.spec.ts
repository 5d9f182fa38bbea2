import { ScanEvent, StoredScan, toStoredScans } from './scan-event';

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

describe('toStoredScans', () => {
  it('writes each event in the column names of scan_events, with its user agent classified', () => {
    const [stored] = toStoredScans([event()]).map((text) => JSON.parse(text) as StoredScan);
    expect(stored).toEqual({
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
    });
  });

  it.each([
    ['a bot', { isBot: true, userAgent: 'Slackbot-LinkExpanding 1.0' }, { device: 'bot', is_bot: true }],
    ['no user agent', { userAgent: null }, { device: 'other', os: 'unknown', browser: 'unknown', user_agent: null }],
    ['a desktop browser', { userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36' }, { device: 'desktop', os: 'Windows', browser: 'Chrome' }],
  ])('classifies %s', (_label, overrides, expected) => {
    expect(JSON.parse(toStoredScans([event(overrides)])[0])).toMatchObject(expected);
  });

  it('classifies a repeated user agent once per batch, the same way for a bot and a person apart', () => {
    const stored = toStoredScans([event(), event({ isBot: true }), event()]).map((text) => JSON.parse(text) as StoredScan);
    expect(stored.map((scan) => scan.device)).toEqual(['mobile', 'bot', 'mobile']);
  });
});
