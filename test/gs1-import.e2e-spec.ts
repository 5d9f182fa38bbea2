import { auth, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const GTIN = '09506000134352';

interface ImportBody {
  dry_run: boolean;
  rows: number;
  summary: { created: number; updated: number; failed: number };
  items: Array<{ path: string; rows: number[]; action: string; id: string | null; errors: Array<{ field: string; message: string }> }>;
}

/** CSV import of GS1 links, one row per link, with a dry run (docs/gs1-digital-link.md#csv-import). */
describe('GS1 link CSV import (e2e)', () => {
  let t: TestApp;
  let key: string;
  const importCsv = (csv: string, dryRun = false) =>
    t.request({
      method: 'POST',
      url: `/api/v1/gs1/items/import${dryRun ? '?dry_run=true' : ''}`,
      headers: { ...auth(key), 'content-type': 'text/csv' },
      payload: csv,
    });
  const CSV =
    'path,name,link_type,href,title,hreflang,default\n' +
    `/01/${GTIN},Rice,gs1:pip,https://b.example/en,Product information,en,true\n` +
    `/01/${GTIN},Rice,gs1:pip,https://b.example/fr,Informations produit,fr,false\n` +
    `/01/${GTIN}/10/LOT1,,gs1:recallStatus,https://b.example/recall?lot={10},Recall,en,true\n` +
    `/01/09506000134353,,gs1:pip,https://b.example/x,Bad check digit,,true\n` +
    `/01/9506000134369,,gs1:pip,notaurl,No URL,,true\n`;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(() => t?.close());

  it('a dry run checks every item and writes nothing', async () => {
    const res = await importCsv(CSV, true);
    expectStatus(res, 200);
    const body = res.json<ImportBody>();
    expect(body).toMatchObject({ dry_run: true, rows: 5, summary: { created: 2, updated: 0, failed: 2 } });
    expect(body.items.map((item) => [item.path, item.rows, item.action])).toEqual([
      [`/01/${GTIN}`, [2, 3], 'create'],
      [`/01/${GTIN}/10/LOT1`, [4], 'create'],
      ['/01/09506000134353', [5], 'failed'],
      ['/01/09506000134369', [6], 'failed'],
    ]);
    expect(body.items[2].errors[0].field).toBe('path');
    expect(body.items[3].errors.map((error) => error.field)).toContain('links[0].href');
    expect(await t.prisma.gs1Item.count()).toBe(0);
  });

  it('imports: items created with their links, resolvable; a second import replaces an item’s links', async () => {
    const body = (await importCsv(CSV)).json<ImportBody>();
    expect(body.summary).toEqual({ created: 2, updated: 0, failed: 2 });
    const id = body.items[0].id!;
    const item = await t.request({ method: 'GET', url: `/api/v1/gs1/items/${id}`, headers: auth(key) });
    expect(item.json<{ name: string; links: Array<{ href: string; hreflang: string[]; default: boolean }> }>()).toMatchObject({
      name: 'Rice',
      links: [
        { href: 'https://b.example/en', hreflang: ['en'], default: true },
        { href: 'https://b.example/fr', hreflang: ['fr'], default: false },
      ],
    });
    const fr = await t.request({ method: 'GET', url: `/gs1/01/${GTIN}`, headers: { host: 'qr.test', 'accept-language': 'fr' } });
    expect(fr.headers.location).toBe('https://b.example/fr');

    const again = await importCsv(`path,link_type,href,title,default\n/01/${GTIN},gs1:pip,https://b.example/new,New page,true\n`);
    expect(again.json<ImportBody>().items[0]).toMatchObject({ action: 'update', id });
    const resolved = await t.request({ method: 'GET', url: `/gs1/01/${GTIN}`, headers: { host: 'qr.test' } });
    expect(resolved.headers.location).toBe('https://b.example/new');
  });

  it('unknown or missing columns, and a body that is not CSV, are refused naming them', async () => {
    const unknown = await importCsv('path,link_type,href,title,colour\n/01/1,a,b,c,d\n');
    expectStatus(unknown, 400);
    expect(unknown.json<{ errors: Array<{ field: string }> }>().errors.map((error) => error.field)).toEqual(['columns.colour']);
    const missing = await importCsv('path,link_type,title\n/01/1,a,c\n');
    expectStatus(missing, 400);
    expect(missing.json<{ errors: Array<{ field: string }> }>().errors.map((error) => error.field)).toEqual(['columns.href']);
    const json = await t.request({ method: 'POST', url: '/api/v1/gs1/items/import', headers: auth(key), payload: { a: 1 } });
    expectStatus(json, 415);
  });
});
