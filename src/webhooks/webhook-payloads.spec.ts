import { MAX_SCANS_PER_EVENT, scannedEventBodies } from './webhook-payloads';

describe('scannedEventBodies', () => {
  const at = new Date('2030-01-01T00:00:01.000Z');
  const row = (i: number, overrides: Record<string, unknown> = {}) => ({
    eventId: `e${i}`,
    codeId: 'c1' as never,
    scannedAt: '2030-01-01T00:00:00.000Z',
    referrer: i % 2 ? 'https://news.example/a?b' : 'not a url',
    visitorHash: 'ab'.repeat(16),
    device: 'mobile',
    os: 'iOS',
    browser: 'Mobile Safari',
    isBot: false,
    country: i % 3 ? 'DE' : null,
    city: i % 3 === 1 ? 'Berlin' : null,
    ruleIndex: null,
    armIndex: null,
    ...overrides,
  });
  const parse = (body: string) =>
    JSON.parse(body) as { type: string; timestamp: string; data: { qrcode: unknown; scans: Array<Record<string, unknown>> } };

  it('puts at most MAX_SCANS_PER_EVENT (1,000) scans in an event, in order, with the referrer host, country and city, and no IP', () => {
    const events = scannedEventBodies(
      { id: 'c1', shortCode: 'Abc12345' },
      Array.from({ length: 2050 }, (_, i) => row(i)),
      at,
    ).map(parse);
    expect(MAX_SCANS_PER_EVENT).toBe(1000);
    expect(events.map((event) => event.data.scans.length)).toEqual([1000, 1000, 50]);
    expect(events.flatMap((event) => event.data.scans.map((scan) => scan.id))).toEqual(Array.from({ length: 2050 }, (_, i) => `e${i}`));
    expect(events[0]).toMatchObject({
      type: 'qrcode.scanned',
      timestamp: '2030-01-01T00:00:01.000Z',
      data: { qrcode: { id: 'c1', short_code: 'Abc12345' } },
    });
    expect(events[0].data.scans[1]).toEqual({
      id: 'e1',
      scanned_at: '2030-01-01T00:00:00.000Z',
      device: 'mobile',
      os: 'iOS',
      browser: 'Mobile Safari',
      referrer_host: 'news.example',
      country: 'DE',
      city: 'Berlin',
      visitor_hash: 'ab'.repeat(16),
    });
    expect(events[0].data.scans[0].referrer_host).toBeNull();
    expect(events[0].data.scans.slice(0, 3).map((scan) => [scan.country, scan.city])).toEqual([
      [null, null],
      ['DE', 'Berlin'],
      ['DE', null],
    ]);
    // Each referrer is parsed once per call and its host reused: every row still gets its own.
    expect(events.flatMap((event) => event.data.scans.map((scan) => scan.referrer_host))).toEqual(
      Array.from({ length: 2050 }, (_, i) => (i % 2 ? 'news.example' : null)),
    );
  });

  it.each([
    ['quotes and backslashes', { browser: 'Odd "Browser" \\ 1.0' }],
    ['control characters and a line separator', { os: 'Line\nbreak\u2028tab\t' }],
    ['non-Latin text', { device: 'планшет 😀' }],
    ['an IDN referrer', { referrer: 'https://bücher.example/x' }],
    ['a city with quotes and non-Latin text', { city: 'Sāo "Paulo" \\ 東京' }],
    ['an id, a time and a hash that are not what they should be', { eventId: 'e"1', scannedAt: '2030\\01', visitorHash: '\u0000ab' }],
  ])('writes valid JSON with %s kept exactly', (_name, overrides) => {
    const scanned = row(1, overrides);
    const [body] = scannedEventBodies({ id: 'c1', shortCode: null }, [scanned], at);
    const scan = parse(body).data.scans[0];
    expect(scan).toMatchObject({
      id: scanned.eventId,
      scanned_at: scanned.scannedAt,
      visitor_hash: scanned.visitorHash,
      device: scanned.device,
      os: scanned.os,
      browser: scanned.browser,
      country: scanned.country,
      city: scanned.city,
    });
    expect(parse(body).data.qrcode).toEqual({ id: 'c1', short_code: null });
    if ('referrer' in overrides) expect(scan.referrer_host).toBe('xn--bcher-kva.example');
  });

  it('gives every row its own device, OS and browser when they repeat and alternate', () => {
    const kinds = [
      { device: 'mobile', os: 'iOS', browser: 'Mobile Safari' },
      { device: 'desktop', os: 'Windows', browser: 'Chrome' },
      { device: 'tablet', os: 'Android', browser: 'Mobile Safari' },
    ];
    const rows = Array.from({ length: 300 }, (_, i) => row(i, kinds[i % 3]));
    const scans = scannedEventBodies({ id: 'c1', shortCode: 'x' }, rows, at).flatMap((body) => parse(body).data.scans);
    expect(scans.map((scan) => [scan.device, scan.os, scan.browser])).toEqual(rows.map((r) => [r.device, r.os, r.browser]));
  });

  it('writes no event for no scans', () => {
    expect(scannedEventBodies({ id: 'c1', shortCode: 'x' }, [], at)).toEqual([]);
  });
});
