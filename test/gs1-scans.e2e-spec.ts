import { Gs1ScanBuffer } from '../src/gs1/scans/gs1-scan-buffer';
import { auth, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const GTIN = '09506000134352';
const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const link = (link_type: string, href: string, extra: Record<string, unknown> = {}) => ({ link_type, href, title: `${link_type} ${href}`, ...extra });

interface ScansBody {
  item_id: string;
  totals: { scans: number; unique_visitors: number; bot_scans: number };
  series: Array<{ start: string; scans: number; unique_visitors: number }>;
  by_link_type: Array<{ value: string; scans: number }>;
  by_lot: Array<{ value: string; scans: number }>;
  by_serial: Array<{ value: string; scans: number }>;
  by_country: Array<{ value: string; scans: number }>;
}

/** Resolutions that redirect a person are scans of the item followed (docs/gs1-digital-link.md#scans). */
describe('GS1 scans (e2e)', () => {
  let t: TestApp;
  let key: string;
  let otherKey: string;
  let gtinItem: string;
  let lotItem: string;

  const resolve = (url: string, userAgent: string | null = BROWSER, method: 'GET' | 'HEAD' = 'GET') =>
    t.request({ method, url, headers: { host: 'qr.test', ...(userAgent ? { 'user-agent': userAgent } : {}) } });
  const scansOf = async (id: string, query = '', apiKey = key) => {
    await t.app.get(Gs1ScanBuffer).flush();
    return t.request({ method: 'GET', url: `/api/v1/gs1/items/${id}/scans${query}`, headers: auth(apiKey) });
  };

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
    ({ key: otherKey } = await t.newAccount());
    const create = async (payload: Record<string, unknown>) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/gs1/items', headers: auth(key), payload });
      expectStatus(res, 201);
      return res.json<{ id: string }>().id;
    };
    gtinItem = await create({
      path: `/01/${GTIN}`,
      links: [link('gs1:pip', 'https://brand.example/p', { default: true }), link('gs1:recallStatus', 'https://brand.example/recall?serial={21}')],
    });
    lotItem = await create({ path: `/01/${GTIN}/10/LOT1`, links: [link('gs1:safetyInfo', 'https://brand.example/lot1', { default: true })] });
  });
  afterAll(() => t?.close());

  it('counts redirects of people by link type, lot and serial; bots apart; HEAD, linksets, 300s and errors not at all', async () => {
    expect((await resolve(`/gs1/01/${GTIN}`)).statusCode).toBe(307);
    expect((await resolve(`/gs1/01/${GTIN}/21/S1?linkType=gs1:recallStatus`)).statusCode).toBe(307);
    // A serial of LOT2 (no item of its own) resolves through its GTIN: a scan of the GTIN's item, with its lot and serial.
    expect((await resolve(`/gs1/01/${GTIN}/10/LOT2/21/S2`)).statusCode).toBe(307);
    expect((await resolve(`/gs1/01/${GTIN}/10/LOT1`)).statusCode).toBe(307);
    expect((await resolve(`/gs1/01/${GTIN}`, BOT)).statusCode).toBe(307);
    expect((await resolve(`/gs1/01/${GTIN}`, null)).statusCode).toBe(307);
    // Not scans:
    expect((await resolve(`/gs1/01/${GTIN}`, BROWSER, 'HEAD')).statusCode).toBe(307);
    expect((await resolve(`/gs1/01/${GTIN}?linkType=linkset`)).statusCode).toBe(200);
    expect((await resolve(`/gs1/01/${GTIN}?linkType=gs1:certificationInfo`)).statusCode).toBe(404);
    expect((await resolve(`/gs1/01/09506000134353`)).statusCode).toBe(400);

    const res = await scansOf(gtinItem);
    expectStatus(res, 200);
    const body = res.json<ScansBody>();
    expect(body.item_id).toBe(gtinItem);
    expect(body.totals).toEqual({ scans: 3, unique_visitors: 1, bot_scans: 2 });
    expect(body.by_link_type).toEqual([
      { value: 'gs1:pip', scans: 2 },
      { value: 'gs1:recallStatus', scans: 1 },
    ]);
    expect(body.by_lot).toEqual([{ value: 'LOT2', scans: 1 }]);
    expect(body.by_serial).toEqual([
      { value: 'S1', scans: 1 },
      { value: 'S2', scans: 1 },
    ]);
    expect(body.by_country).toEqual([{ value: 'unknown', scans: 3 }]);
    expect(body.series).toHaveLength(31);
    expect(body.series.at(-1)!.scans).toBe(3);
    expect(body.series.slice(0, -1).every((bucket) => bucket.scans === 0)).toBe(true);

    const lot = (await scansOf(lotItem)).json<ScansBody>();
    expect(lot.totals.scans).toBe(1);
    expect(lot.by_link_type).toEqual([{ value: 'gs1:safetyInfo', scans: 1 }]);
    expect(lot.by_lot).toEqual([{ value: 'LOT1', scans: 1 }]);

    const item = await t.request({ method: 'GET', url: `/api/v1/gs1/items/${gtinItem}`, headers: auth(key) });
    expect(item.json<{ scans: number }>().scans).toBe(3);
    const rows = await t.prisma.gs1ScanEvent.count({ where: { itemId: gtinItem } });
    expect(rows).toBe(5);
  });

  it('a window by hour in a time zone; bad windows are 400 naming the parameter', async () => {
    const from = encodeURIComponent(new Date(Date.now() - 3 * 3_600_000).toISOString());
    const hourly = (await scansOf(gtinItem, `?interval=hour&from=${from}`)).json<ScansBody>();
    expect(hourly.series).toHaveLength(4);
    expect(hourly.series.reduce((sum, bucket) => sum + bucket.scans, 0)).toBe(3);
    const bad = await scansOf(gtinItem, '?from=yesterday');
    expectStatus(bad, 400);
    expect(bad.json<{ errors: Array<{ field: string }> }>().errors[0].field).toBe('from');
    const zone = await scansOf(gtinItem, '?tz=Mars/Olympus');
    expectStatus(zone, 400);
    expect(zone.json<{ errors: Array<{ field: string }> }>().errors[0].field).toBe('tz');
  });

  it("another account's item is 404", async () => {
    expectStatus(await scansOf(gtinItem, '', otherKey), 404);
  });

  it('deleting an item deletes its scans', async () => {
    const res = await t.request({ method: 'DELETE', url: `/api/v1/gs1/items/${lotItem}`, headers: auth(key) });
    expectStatus(res, 200);
    expect(await t.prisma.gs1ScanEvent.count({ where: { itemId: lotItem } })).toBe(0);
  });
});
