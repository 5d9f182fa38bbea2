import { wants } from './endpoint-scope';
import { MAX_SCANS_PER_EVENT, scannedEventData } from './webhook-payloads';

const code = { id: 'c1', folderId: 'f1' };

describe('wants', () => {
  it.each([
    ['every event, every code', { events: ['*'], folderId: null, qrcodeIds: [] }, 'qrcode.scanned', true],
    ['the type', { events: ['qrcode.created'], folderId: null, qrcodeIds: [] }, 'qrcode.created', true],
    ['another type', { events: ['qrcode.created'], folderId: null, qrcodeIds: [] }, 'qrcode.deleted', false],
    ['its folder', { events: ['*'], folderId: 'f1', qrcodeIds: [] }, 'qrcode.updated', true],
    ['another folder', { events: ['*'], folderId: 'f2', qrcodeIds: [] }, 'qrcode.updated', false],
    ['a listed code', { events: ['*'], folderId: null, qrcodeIds: ['c0', 'c1'] }, 'qrcode.scanned', true],
    ['an unlisted code', { events: ['*'], folderId: null, qrcodeIds: ['c0'] }, 'qrcode.scanned', false],
  ] as const)('%s', (_name, endpoint, type, expected) => {
    expect(wants(endpoint, type, code)).toBe(expected);
  });
});

describe('scannedEventData', () => {
  const row = (i: number) => ({
    eventId: `e${i}`, codeId: 'c1' as never, scannedAt: '2030-01-01T00:00:00.000Z', referrer: i % 2 ? 'https://news.example/a?b' : 'not a url',
    visitorHash: 'ab'.repeat(16), device: 'mobile', os: 'iOS', browser: 'Mobile Safari', isBot: false,
  });

  it('puts at most MAX_SCANS_PER_EVENT (1,000) scans in an event, in order, with the referrer host, no country and no IP', () => {
    const events = scannedEventData({ id: 'c1', shortCode: 'Abc12345' }, Array.from({ length: 2050 }, (_, i) => row(i))) as Array<{ scans: Array<Record<string, unknown>> }>;
    expect(MAX_SCANS_PER_EVENT).toBe(1000);
    expect(events.map((event) => event.scans.length)).toEqual([1000, 1000, 50]);
    expect(events.flatMap((event) => event.scans.map((scan) => scan.id))).toEqual(Array.from({ length: 2050 }, (_, i) => `e${i}`));
    expect(events[0].scans[1]).toEqual({
      id: 'e1', scanned_at: '2030-01-01T00:00:00.000Z', device: 'mobile', os: 'iOS', browser: 'Mobile Safari', referrer_host: 'news.example', country: null, visitor_hash: 'ab'.repeat(16),
    });
    expect(events[0].scans[0].referrer_host).toBeNull();
  });
});
