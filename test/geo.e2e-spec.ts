import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { describeWhen } from './support/environment';
import { auth, createQr, expectStatus, GENEROUS_RATE_LIMIT, rebuildScanRollups } from './support/factories';
import { HAS_MMDB_WRITER, TEST_PLACES, writeTestMmdb } from './support/geo/test-mmdb';
import { startTestApp, type TestApp } from './support/test-app';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const WEBHOOKS_WITHOUT_DELIVERY = { WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: '1', ROLE: 'api' };

/** Scans' place, through the redirect host: the stored columns, `/scans` and the qrcode.scanned items. */
describe('geo-location of scans (e2e)', () => {
  const scan = (t: TestApp, shortCode: string, remoteAddress: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/r/${shortCode}`, headers: { 'user-agent': IPHONE, ...headers }, remoteAddress });

  const storedPlaces = async (t: TestApp, codeId: string) =>
    (await t.prisma.scanEvent.findMany({ where: { qrCodeId: codeId }, orderBy: { scannedAt: 'asc' } })).map((row) => [row.country, row.city]);

  const scannedItems = async (t: TestApp, codeId: string) =>
    (await t.prisma.webhookEvent.findMany({ where: { type: 'qrcode.scanned', body: { contains: codeId } } })).flatMap(
      (event) => (JSON.parse(event.body) as { data: { scans: Array<{ country: string | null; city: string | null }> } }).data.scans,
    );

  describe('the bundled country database (no GEOIP_DB)', () => {
    let t: TestApp;
    let key: string;
    beforeAll(async () => {
      t = await startTestApp({ ...GENEROUS_RATE_LIMIT, ...WEBHOOKS_WITHOUT_DELIVERY });
      ({ key } = await t.newAccount());
    });
    afterAll(() => t.close());

    it('stores the country of a well-known public address, none for a private one, and never the address', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      expectStatus(
        await t.request({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: auth(key),
          payload: { url: 'http://127.0.0.1:9/hook', events: ['qrcode.scanned'] },
        }),
        201,
      );
      expectStatus(await scan(t, code.short_code, '8.8.8.8'), 302);
      expectStatus(await scan(t, code.short_code, '10.20.30.40'), 302);
      await t.app.get(ScanBuffer).flush();
      expect((await storedPlaces(t, code.id)).sort()).toEqual([
        [null, null],
        ['US', null],
      ]);
      const rows = await t.prisma.scanEvent.findMany({ where: { qrCodeId: code.id } });
      expect(JSON.stringify(rows)).not.toContain('8.8.8.8');
      expect((await scannedItems(t, code.id)).map((item) => [item.country, item.city]).sort()).toEqual([
        [null, null],
        ['US', null],
      ]);
      const body = (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans`, headers: auth(key) })).json();
      expect(body.by_country).toEqual([
        { value: 'US', scans: 1 },
        { value: 'unknown', scans: 1 },
      ]);
      expect(body.by_city).toEqual([]);
    });
  });

  it('does not believe a country header without TRUST_PROXY, even when one is named, and says so once at start', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const t = await startTestApp({ ...GENEROUS_RATE_LIMIT, GEO_COUNTRY_HEADER: 'CF-IPCountry' });
    try {
      expect(warn.mock.calls.filter(([message]) => String(message).includes('GEO_COUNTRY_HEADER'))).toHaveLength(1);
      const { key } = await t.newAccount();
      const code = await createQr(t, key, { is_dynamic: true });
      expectStatus(await scan(t, code.short_code, '8.8.8.8', { 'cf-ipcountry': 'SE' }), 302);
      await t.app.get(ScanBuffer).flush();
      expect(await storedPlaces(t, code.id)).toEqual([['US', null]]);
    } finally {
      warn.mockRestore();
      await t.close();
    }
  });

  it('starts with a missing GEOIP_DB file, logs one warning, and stores scans without a country', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const path = join(tmpdir(), `qr-geo-missing-${randomUUID()}.mmdb`);
    const t = await startTestApp({ ...GENEROUS_RATE_LIMIT, GEOIP_DB: path });
    try {
      const geoWarnings = warn.mock.calls.filter(([message]) => String(message).includes('Geo database'));
      expect(geoWarnings).toHaveLength(1);
      expect(String(geoWarnings[0][0])).toContain(path);
      const { key } = await t.newAccount();
      const code = await createQr(t, key, { is_dynamic: true });
      expectStatus(await scan(t, code.short_code, '8.8.8.8'), 302);
      await t.app.get(ScanBuffer).flush();
      expect(await storedPlaces(t, code.id)).toEqual([[null, null]]);
    } finally {
      warn.mockRestore();
      await t.close();
    }
  });

  describeWhen(HAS_MMDB_WRITER)('a city database (GEOIP_DB) behind a trusted proxy with a country header', () => {
    let t: TestApp;
    let key: string;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'qr-geo-e2e-'));
      t = await startTestApp({
        ...GENEROUS_RATE_LIMIT,
        ...WEBHOOKS_WITHOUT_DELIVERY,
        GEOIP_DB: writeTestMmdb('city', join(dir, 'GeoLite2-City.mmdb')),
        TRUST_PROXY: '1',
        GEO_COUNTRY_HEADER: 'CF-IPCountry',
      });
      ({ key } = await t.newAccount());
    });
    afterAll(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('stores country and city of IPv4 and IPv6 visitors (X-Forwarded-For), sends them to webhooks, counts them in /scans', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      expectStatus(
        await t.request({
          method: 'POST',
          url: '/api/v1/webhooks',
          headers: auth(key),
          payload: { url: 'http://127.0.0.1:9/hook', events: ['qrcode.scanned'] },
        }),
        201,
      );
      for (const [ip] of TEST_PLACES.city) expectStatus(await scan(t, code.short_code, '10.0.0.1', { 'x-forwarded-for': ip }), 302);
      // The header decides the country; the database's city only where it agrees.
      expectStatus(await scan(t, code.short_code, '10.0.0.1', { 'x-forwarded-for': '203.0.113.7', 'cf-ipcountry': 'de' }), 302);
      expectStatus(await scan(t, code.short_code, '10.0.0.1', { 'x-forwarded-for': '203.0.113.7', 'cf-ipcountry': 'AT' }), 302);
      expectStatus(await scan(t, code.short_code, '10.0.0.1', { 'x-forwarded-for': '192.0.2.1', 'cf-ipcountry': 'XX' }), 302);
      // A bot's scan is stored with its place, and neither counted in /scans nor sent.
      expectStatus(await scan(t, code.short_code, '10.0.0.1', { 'x-forwarded-for': '203.0.113.9', 'user-agent': 'Slackbot-LinkExpanding 1.0' }), 302);
      await t.app.get(ScanBuffer).flush();

      const expected = [
        ...TEST_PLACES.city.map(([, country, city]) => [country, city]),
        ['DE', 'Berlin'],
        ['AT', null],
        [null, null],
        ['DE', 'Berlin'],
      ];
      // Scans of one millisecond have no order among them: compared as sets.
      const sorted = (places: unknown[][]) => places.map((place) => JSON.stringify(place)).sort();
      expect(sorted(await storedPlaces(t, code.id))).toEqual(sorted(expected));
      // Bots' scans are not sent (docs/webhooks.md).
      expect(sorted((await scannedItems(t, code.id)).map((item) => [item.country, item.city]))).toEqual(sorted(expected.slice(0, -1)));

      const body = (await t.request({ method: 'GET', url: `/api/v1/qrcodes/${code.id}/scans`, headers: auth(key) })).json();
      expect(body.totals.scans).toBe(8);
      expect(body.by_country).toEqual([
        { value: 'DE', scans: 2 },
        { value: 'AT', scans: 1 },
        { value: 'BR', scans: 1 },
        { value: 'FR', scans: 1 },
        { value: 'JP', scans: 1 },
        { value: 'US', scans: 1 },
        { value: 'unknown', scans: 1 },
      ]);
      expect(body.by_city).toEqual([
        { value: 'Berlin', country: 'DE', scans: 2 },
        { value: 'Paris', country: 'FR', scans: 1 },
        { value: 'Paris', country: 'US', scans: 1 },
        { value: 'Tokyo', country: 'JP', scans: 1 },
      ]);
    });

    it('lists the top 10 countries and cities of stored scans in the window, bots left out', async () => {
      const code = await createQr(t, key, { is_dynamic: true });
      const countries = ['AR', 'AU', 'BE', 'CA', 'CH', 'CL', 'CZ', 'DK', 'ES', 'FI', 'GR'];
      const rows = [
        ...countries.map((country, i) => ({ country, city: `City ${String(i).padStart(2, '0')}` })),
        { country: 'GR', city: 'City 10' },
        { country: 'GR', city: 'Athens' },
        { country: null, city: null },
        { country: null, city: null },
      ];
      await t.prisma.scanEvent.createMany({
        data: [
          ...rows.map((row, i) => ({
            eventId: randomUUID(),
            qrCodeId: code.id,
            scannedAt: new Date('2026-05-10T12:00:00Z'),
            device: 'mobile',
            os: 'iOS',
            browser: 'Mobile Safari',
            visitorHash: `v${i}`.padEnd(32, '-'),
            isBot: false,
            ...row,
          })),
          {
            eventId: randomUUID(),
            qrCodeId: code.id,
            scannedAt: new Date('2026-05-10T12:00:00Z'),
            device: 'bot',
            os: 'unknown',
            browser: 'unknown',
            visitorHash: 'bot'.padEnd(32, '-'),
            isBot: true,
            country: 'ZW',
            city: 'Harare',
          },
          {
            eventId: randomUUID(),
            qrCodeId: code.id,
            scannedAt: new Date('2026-05-12T12:00:00Z'),
            device: 'mobile',
            os: 'iOS',
            browser: 'Mobile Safari',
            visitorHash: 'late'.padEnd(32, '-'),
            isBot: false,
            country: 'YE',
            city: 'Sanaa',
          },
        ],
      });
      await rebuildScanRollups(t, [code.id]);
      const body = (
        await t.request({
          method: 'GET',
          url: `/api/v1/qrcodes/${code.id}/scans?from=2026-05-10T00:00:00Z&to=2026-05-11T00:00:00Z`,
          headers: auth(key),
        })
      ).json();
      expect(body.by_country).toEqual([
        { value: 'GR', scans: 3 },
        { value: 'unknown', scans: 2 },
        ...['AR', 'AU', 'BE', 'CA', 'CH', 'CL', 'CZ', 'DK'].map((value) => ({ value, scans: 1 })),
      ]);
      expect(body.by_city).toEqual([
        { value: 'City 10', country: 'GR', scans: 2 },
        { value: 'Athens', country: 'GR', scans: 1 },
        ...['00', '01', '02', '03', '04', '05', '06', '07'].map((n, i) => ({ value: `City ${n}`, country: countries[i], scans: 1 })),
      ]);
    });
  });
});
