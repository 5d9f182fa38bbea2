import { unzipSync } from 'fflate';
import { parse } from 'csv-parse/sync';
import { decodeSvg } from './support/decode-svg';
import { decodePng, flattenOnWhite } from './support/png-reader';
import { decodeWithZxing } from './support/qr-decoders';
import { describeWhen, HAS_POSTGRES } from './support/environment';
import {
  auth,
  CONTENT_SAMPLES,
  countCodes,
  createFolder,
  createQr,
  expectFieldErrors,
  expectStatus,
  GENEROUS_RATE_LIMIT,
  NO_SUCH_ID,
  QR_TYPES,
  UUID,
} from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const CSV = { 'content-type': 'text/csv' };
type Job = { id: string; status: string; total: number; done: number; [key: string]: unknown };

/** A CSV of `count` url rows; the rows whose index `invalid` accepts carry a URL the rules refuse. */
function urlRowsCsv(count: number, invalid: (index: number) => boolean = () => false): string {
  const lines = ['type,name,is_dynamic,content.url'];
  for (let i = 0; i < count; i++) lines.push(`url,Row ${i},${i % 2 === 0},${invalid(i) ? 'ftp://example.com/x' : `https://example.com/item/${i}`}`);
  return `${lines.join('\r\n')}\r\n`;
}

/** Polls a job until it is done or failed. The embedded database is slower: jobs get two minutes. */
async function finishedJob(t: TestApp, key: string, path: string, timeoutMs = 120_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request({ method: 'GET', url: path, headers: auth(key) });
    expectStatus(res, 200);
    const job = res.json<Job>();
    if (job.status === 'done' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job still ${job.status} (${job.done}/${job.total}) after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('imports and exports (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
  });
  afterAll(() => t?.close());

  const postImport = (key: string, csv: string, query = '', headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: `/api/v1/imports${query}`, headers: { ...auth(key), ...CSV, ...headers }, payload: csv });

  const finished = (key: string, path: string) => finishedJob(t, key, path);
  describe('CSV import', () => {
    it('10,000 rows with 100 invalid: exactly 9,900 codes and 100 row errors; the same upload with the same key creates nothing more', async () => {
      const { key, accountId } = await t.newAccount();
      const csv = urlRowsCsv(10_000, (i) => i % 100 === 7);
      const res = await postImport(key, csv, '', { 'idempotency-key': 'import-10k' });
      expectStatus(res, 202);
      const queued = res.json<Job>();
      expect(queued).toMatchObject({ id: expect.stringMatching(UUID), total: 10_000, dry_run: false });
      expect(['queued', 'running']).toContain(queued.status);

      const job = await finished(key, `/api/v1/imports/${queued.id}?status=failed&limit=1000`);
      expect(job).toMatchObject({ status: 'done', total: 10_000, done: 10_000, counts: { created: 9900, failed: 100, valid: 0 } });
      expect(await countCodes(t, accountId)).toBe(9900);
      const failed = job.rows as Array<{ row: number; status: string; errors: Array<{ field: string; message: string }> }>;
      expect(failed).toHaveLength(100);
      // Row numbers count the header as 1; each error in the bulk create's words.
      expect(failed.map((row) => row.row)).toEqual(Array.from({ length: 100 }, (_, i) => i * 100 + 7 + 2));
      for (const row of failed)
        expect(row).toEqual({ row: row.row, status: 'failed', errors: [{ field: 'content.url', message: expect.stringContaining('content.url') }] });

      const created = await t.request({ method: 'GET', url: `/api/v1/imports/${queued.id}?status=created&limit=3`, headers: auth(key) });
      const rows = created.json<{ rows: Array<{ row: number; id: string }> }>().rows;
      expect(rows.map((row) => row.row)).toEqual([2, 3, 4]);
      const first = await t.prisma.qrCode.findUniqueOrThrow({ where: { id: rows[0].id } });
      expect(first).toMatchObject({ name: 'Row 0', isDynamic: true, accountId });

      const again = await postImport(key, csv, '', { 'idempotency-key': 'import-10k' });
      expectStatus(again, 202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json<Job>().id).toBe(queued.id);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await countCodes(t, accountId)).toBe(9900);
      expect(await t.prisma.job.count({ where: { accountId } })).toBe(1);
      // One audit entry for the import, and the codes' creations as bulk creates.
      expect(await t.prisma.auditLogEntry.count({ where: { accountId, action: 'import.create' } })).toBe(1);
      expect(await t.prisma.auditLogEntry.count({ where: { accountId, action: 'qrcode.bulk_create' } })).toBe(20);
    }, 120_000);

    it('a dry run checks every row and writes nothing', async () => {
      const { key, accountId } = await t.newAccount();
      const res = await postImport(
        key,
        urlRowsCsv(30, (i) => i === 4),
        '?dry_run=true',
      );
      expectStatus(res, 202);
      const job = await finished(key, `/api/v1/imports/${res.json<Job>().id}`);
      expect(job).toMatchObject({ status: 'done', dry_run: true, counts: { created: 0, failed: 1, valid: 29 } });
      expect((job.rows as Array<{ row: number; status: string }>).find((row) => row.status === 'failed')).toMatchObject({ row: 6 });
      expect(await countCodes(t, accountId)).toBe(0);
    });

    it('reads quotes, line breaks in cells, a BOM, `;` as the delimiter, folders by name; a failing row never stops the others', async () => {
      const { key, accountId } = await t.newAccount();
      const folder = await createFolder(t, key, 'Menus; summer');
      const csv =
        '\uFEFFtype;name;folder_name;style;content.text;content.latitude;content.longitude\r\n' +
        'text;"Line one\nline two";"Menus; summer";"{""dotsOptions"":{""type"":""dots""}}";"Say ""hi""; twice";;\r\n' +
        'geo;Berlin;;;;52.52;13.405\r\n' +
        'geo;Nowhere;;;;north;13\r\n' +
        'text;Lost;No such folder;;x;;\r\n' +
        'text;Short row\r\n';
      const res = await postImport(key, csv);
      expectStatus(res, 202);
      const job = await finished(key, `/api/v1/imports/${res.json<Job>().id}`);
      expect(job.counts).toEqual({ created: 2, failed: 3, valid: 0 });
      expect((job.rows as unknown[]).map((row) => (row as { status: string }).status)).toEqual(['created', 'created', 'failed', 'failed', 'failed']);
      expect((job.rows as Array<{ errors?: unknown }>)[2].errors).toEqual([
        { field: 'content.latitude', message: 'content.latitude must be a number' },
      ]);
      expect((job.rows as Array<{ errors?: Array<{ field: string }> }>)[3].errors![0].field).toBe('folder_name');
      expect((job.rows as Array<{ errors?: Array<{ field: string }> }>)[4].errors![0].field).toBe('row');
      const text = await t.prisma.qrCode.findFirstOrThrow({ where: { accountId, type: 'text' } });
      expect(text).toMatchObject({
        name: 'Line one\nline two',
        folderId: folder.id,
        content: { text: 'Say "hi"; twice' },
        style: { dotsOptions: { type: 'dots' } },
      });
      expect(await t.prisma.qrCode.findFirstOrThrow({ where: { accountId, type: 'geo' } })).toMatchObject({
        content: { latitude: 52.52, longitude: 13.405 },
      });
    });

    it('reads the smart-link columns, and names a bad rule, scan limit or domain in its row', async () => {
      const { key, accountId } = await t.newAccount();
      const csv =
        'type,name,is_dynamic,domain_id,rules,max_scans,fallback_url,utm,content.url\r\n' +
        'url,Ruled,true,,"[{""conditions"":{""country"":[""DE""]},""target"":""https://example.com/de""}]",10,https://example.com/over,"{""source"":""qr""}",https://example.com/\r\n' +
        'url,Bad rule,true,,"[{""conditions"":{""country"":[""Germany""]},""target"":""https://example.com/de""}]",,,,https://example.com/\r\n' +
        'url,Bad limit,true,,,0,,,https://example.com/\r\n' +
        'url,Static ruled,false,,"[{""conditions"":{},""target"":""https://example.com/x""}]",,,,https://example.com/\r\n' +
        'url,Not my domain,true,3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37,,,,,https://example.com/\r\n';
      const res = await postImport(key, csv);
      expectStatus(res, 202);
      const job = await finished(key, `/api/v1/imports/${res.json<Job>().id}`);
      expect(job.counts).toEqual({ created: 1, failed: 4, valid: 0 });
      const rows = job.rows as Array<{ status: string; errors?: Array<{ field: string }> }>;
      expect(rows.map((row) => row.errors?.[0]?.field ?? row.status)).toEqual([
        'created',
        'rules[0].conditions.country[0]',
        'max_scans',
        'rules',
        'domain_id',
      ]);
      expect(await t.prisma.qrCode.findFirstOrThrow({ where: { accountId, name: 'Ruled' } })).toMatchObject({
        linkRules: [{ conditions: { country: ['DE'] }, target: 'https://example.com/de' }],
        maxScans: 10,
        fallbackUrl: 'https://example.com/over',
        utm: { source: 'qr' },
      });
    });

    it('refuses a file it cannot take, naming the problem, and queues nothing', async () => {
      const { key, accountId } = await t.newAccount();
      expectFieldErrors(await postImport(key, 'type,colour\r\nurl,red\r\n'), 'columns.colour');
      expectFieldErrors(await postImport(key, 'type,name\r\n'), 'body');
      expectFieldErrors(await postImport(key, ''), 'body');
      expectFieldErrors(await postImport(key, 'type,name\r\nurl,"unclosed\r\n'), 'body');
      expectFieldErrors(await postImport(key, 'name\r\nx\r\n'), 'columns.type');
      expectFieldErrors(await postImport(key, 'type,type\r\nurl,url\r\n'), 'columns.type');
      expectFieldErrors(await postImport(key, urlRowsCsv(10_001)), 'body');
      const big = `type,name\r\n${'url,'.padEnd(1000, 'x')}\r\n`.repeat(11_000);
      expectFieldErrors(await postImport(key, big), 'body');
      expectFieldErrors(await postImport(key, urlRowsCsv(1), '?dry_run=maybe'), 'dry_run');
      const json = await t.request({ method: 'POST', url: '/api/v1/imports', headers: auth(key), payload: { type: 'url' } });
      expectStatus(json, 415);
      const elsewhere = await t.request({ method: 'POST', url: '/api/v1/qrcodes', headers: { ...auth(key), ...CSV }, payload: 'type\r\nurl\r\n' });
      expectStatus(elsewhere, 415);
      expect(await t.prisma.job.count({ where: { accountId } })).toBe(0);
      const missing = await t.request({ method: 'GET', url: `/api/v1/imports/${NO_SUCH_ID}`, headers: auth(key) });
      expectStatus(missing, 404);
    });
  });

  describe('ZIP export', () => {
    it('a ZIP of 1,000 codes whose manifest matches the codes; the files are the codes’ images', async () => {
      const { key, accountId } = await t.newAccount();
      const folder = await createFolder(t, key, 'Posters');
      const csv = ['type,name,is_dynamic,folder_id,content.url'];
      for (let i = 0; i < 1000; i++) csv.push(`url,Poster ${i} ☕,${i % 3 === 0},${folder.id},https://example.com/p/${i}`);
      const imported = await postImport(key, csv.join('\n'));
      expect((await finished(key, `/api/v1/imports/${imported.json<Job>().id}`)).counts).toMatchObject({ created: 1000 });
      await createQr(t, key, { name: 'Outside the folder' });

      const res = await t.request({
        method: 'POST',
        url: '/api/v1/exports',
        headers: auth(key),
        payload: { folder_id: folder.id, format: 'svg', size: 300, sort: 'oldest' },
      });
      expectStatus(res, 202);
      expect(res.json()).toMatchObject({ id: expect.stringMatching(UUID), total: 1000, format: 'svg', download_url: null });
      const job = await finished(key, `/api/v1/exports/${res.json<Job>().id}`);
      expect(job).toMatchObject({ status: 'done', done: 1000, download_url: `http://api.test/api/v1/exports/${job.id}/download` });

      const download = await t.request({ method: 'GET', url: `/api/v1/exports/${job.id}/download`, headers: auth(key) });
      expectStatus(download, 200);
      expect(download.headers['content-type']).toBe('application/zip');
      expect(download.headers['content-disposition']).toBe(`attachment; filename="qr-codes-${job.id.slice(0, 8)}.zip"`);
      expect(download.rawPayload.length).toBe(job.bytes);
      const files = unzipSync(new Uint8Array(download.rawPayload));
      expect(Object.keys(files)).toHaveLength(1001);
      const manifest = parse<Record<string, string>>(Buffer.from(files['manifest.csv']).toString('utf8'), { columns: true });
      const codes = await t.prisma.qrCode.findMany({ where: { accountId, folderId: folder.id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      expect(manifest).toEqual(
        codes.map((code) => ({
          id: code.id,
          name: code.name,
          file: expect.stringMatching(/^Poster-\d+-[0-9a-f]{12}\.svg$/),
          short_code: code.shortCode ?? '',
          dynamic_url: code.shortCode ? `http://qr.test/r/${code.shortCode}` : '',
        })),
      );
      for (const [index, entry] of manifest.entries()) {
        const svg = Buffer.from(files[entry.file]).toString('utf8');
        expect(svg.startsWith('<svg')).toBe(true);
        // A sample decoded; every file is the code's own image at that size.
        if (index % 100 === 0) expect(decodeSvg(svg)).toBe(entry.dynamic_url || `https://example.com/p/${/\d+/.exec(entry.name)![0]}`);
        if (index % 50 === 0) {
          const image = await t.request({ method: 'GET', url: `/api/v1/qrcodes/${entry.id}/image?size=300`, headers: auth(key) });
          expect(svg).toBe(image.body);
        }
      }
    }, 180_000);

    it('exports PNG and PDF files drawn by the export renderer: each PNG decodes to its code, each PDF is a PDF', async () => {
      const { key } = await t.newAccount();
      const codes = [await createQr(t, key, { name: 'Menü 1' }), await createQr(t, key, { is_dynamic: true, name: 'Poster' })];
      for (const format of ['png', 'pdf'] as const) {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/exports',
          headers: auth(key),
          payload: { ids: codes.map((c) => c.id), format, size: 400 },
        });
        expectStatus(res, 202);
        const job = await finished(key, `/api/v1/exports/${res.json<Job>().id}`);
        expect(job).toMatchObject({ status: 'done', done: 2 });
        const download = await t.request({ method: 'GET', url: `/api/v1/exports/${job.id}/download`, headers: auth(key) });
        const files = unzipSync(new Uint8Array(download.rawPayload));
        const entries = Object.keys(files).filter((name) => name !== 'manifest.csv');
        expect(entries.map((name) => name.split('.').pop())).toEqual([format, format]);
        for (const name of entries) {
          const bytes = Buffer.from(files[name]);
          if (format === 'pdf') {
            expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
            continue;
          }
          const text = await decodeWithZxing(flattenOnWhite(decodePng(bytes)));
          expect([codes[0].content_string, codes[1].dynamic_url]).toContain(text);
        }
      }
    }, 60_000);

    it('refuses bad requests, naming the field: an unknown format, more than 1,000 codes, another account’s codes', async () => {
      const { key } = await t.newAccount();
      const { key: otherKey } = await t.newAccount();
      const mine = await createQr(t, key);
      const theirs = await createQr(t, otherKey);
      const post = (payload: object) => t.request({ method: 'POST', url: '/api/v1/exports', headers: auth(key), payload });
      expectFieldErrors(await post({ ids: [mine.id], format: 'gif' }), 'format');
      expectFieldErrors(await post({ ids: [mine.id], format: 'svg', size: 99 }), 'size');
      expectFieldErrors(await post({ ids: [mine.id], format: 'svg', size: 300, width_mm: 40 }), 'width_mm');
      expectFieldErrors(await post({ ids: [mine.id], format: 'svg', width_mm: 1000, dpi: 1200 }), 'width_mm');
      expectFieldErrors(await post({ ids: [mine.id], format: 'svg', type: 'url' }), 'type');
      expectFieldErrors(await post({ ids: Array.from({ length: 1001 }, () => mine.id), format: 'svg' }), 'ids');
      const foreign = await post({ ids: [mine.id, theirs.id], format: 'svg' });
      expectStatus(foreign, 404);
      expect(foreign.json().errors).toEqual([{ field: 'ids[1]', message: expect.stringContaining(theirs.id) }]);
      const missing = await t.request({ method: 'GET', url: `/api/v1/exports/${NO_SUCH_ID}/download`, headers: auth(key) });
      expectStatus(missing, 404);
    });
  });

  describe('CSV export of the list', () => {
    it('re-imports into another account as equal codes', async () => {
      const { key } = await t.newAccount();
      const { key: otherKey, accountId: otherAccount } = await t.newAccount();
      await createFolder(t, key, 'Shop, front');
      const folder = (await t.request({ method: 'GET', url: '/api/v1/folders', headers: auth(key) })).json<
        { data?: unknown[] } | Array<{ id: string }>
      >();
      const folderId = (Array.isArray(folder) ? folder : (folder as { data: Array<{ id: string }> }).data)[0].id;
      for (const type of QR_TYPES) await createQr(t, key, { type, content: CONTENT_SAMPLES[type].content, name: `${type}, "quoted"; name` });
      await createQr(t, key, {
        name: 'Styled dynamic',
        is_dynamic: true,
        folder_id: folderId,
        style: { dotsOptions: { type: 'rounded', color: '#b71c1c' } },
      });
      await createQr(t, key, { type: 'wifi', content: { ssid: 'Hidden', encryption: 'nopass', hidden: true }, name: 'Hidden wifi' });
      await createQr(t, key, {
        name: 'Smart link',
        is_dynamic: true,
        content: { url: 'https://example.com/smart' },
        expires_at: '2031-06-30T12:00:00.000Z',
        rules: [
          { name: 'Germans, "de"', conditions: { language: ['de'], country: ['DE', 'AT'] }, target: 'https://example.com/de' },
          {
            conditions: { device: ['mobile'] },
            target: {
              split: [
                { url: 'https://example.com/a', weight: 3 },
                { url: 'https://example.com/b', weight: 1 },
              ],
            },
          },
        ],
        max_scans: 250,
        fallback_url: 'https://example.com/sold-out',
        utm: { source: 'qr', campaign: 'spring, 2027' },
      });

      const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes.csv?sort=name-asc', headers: auth(key) });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe('attachment; filename="qr-codes.csv"');
      await createFolder(t, otherKey, 'Shop, front');
      const imported = await postImport(otherKey, res.body);
      expectStatus(imported, 202);
      const job = await finished(otherKey, `/api/v1/imports/${imported.json<Job>().id}`);
      expect(job.counts).toEqual({ created: 12, failed: 0, valid: 0 });

      const list = async (k: string) =>
        (await t.request({ method: 'GET', url: '/api/v1/qrcodes?sort=name-asc&limit=100', headers: auth(k) })).json<{
          data: Array<Record<string, unknown>>;
        }>().data;
      const comparable = (code: Record<string, unknown>) => ({
        name: code.name,
        type: code.type,
        content: code.content,
        content_fields: code.content_fields,
        style_config: code.style_config,
        is_dynamic: code.is_dynamic,
        in_folder: code.folder_id !== null,
        expires_at: code.expires_at,
        rules: code.rules,
        max_scans: code.max_scans,
        fallback_url: code.fallback_url,
        utm: code.utm,
      });
      const originals = (await list(key)).map(comparable);
      expect(originals).toHaveLength(12);
      expect(originals.find((code) => code.name === 'Smart link')).toMatchObject({ max_scans: 250, utm: { campaign: 'spring, 2027' } });
      expect((await list(otherKey)).map(comparable)).toEqual(originals);
      expect(await countCodes(t, otherAccount)).toBe(12);
    });

    it('a code on a branded domain re-imports with its domain into its own account, and is its row’s domain_id error in another', async () => {
      const { key, accountId } = await t.newAccount();
      const { key: otherKey, accountId: otherAccount } = await t.newAccount();
      const added = await t.request({
        method: 'POST',
        url: '/api/v1/domains',
        headers: auth(key),
        payload: { hostname: `files${process.pid}.brand.example` },
      });
      expectStatus(added, 201);
      const domainId = added.json<{ id: string }>().id;
      // Verification needs a DNS record (test/domains.e2e-spec.ts covers it); here the domain is simply marked verified.
      await t.prisma.domain.update({ where: { id: domainId }, data: { status: 'verified', verifiedAt: new Date() } });
      await createQr(t, key, { name: 'Branded', is_dynamic: true, domain_id: domainId, max_scans: 5, utm: { source: 'poster' } });

      const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes.csv', headers: auth(key) });
      expectStatus(res, 200);
      expect(parse<Record<string, string>>(res.body, { columns: true })).toMatchObject([{ name: 'Branded', domain_id: domainId, max_scans: '5' }]);

      const elsewhere = await finished(otherKey, `/api/v1/imports/${(await postImport(otherKey, res.body)).json<Job>().id}`);
      expect(elsewhere.counts).toEqual({ created: 0, failed: 1, valid: 0 });
      expect((elsewhere.rows as Array<{ errors?: Array<{ field: string }> }>)[0].errors?.map((error) => error.field)).toEqual(['domain_id']);
      expect(await countCodes(t, otherAccount)).toBe(0);

      const home = await finished(key, `/api/v1/imports/${(await postImport(key, res.body)).json<Job>().id}`);
      expect(home.counts).toEqual({ created: 1, failed: 0, valid: 0 });
      const copies = await t.prisma.qrCode.findMany({ where: { accountId, name: 'Branded' }, orderBy: { createdAt: 'asc' } });
      expect(copies).toHaveLength(2);
      expect(copies[1]).toMatchObject({ domainId, maxScans: 5, utm: { source: 'poster' }, isDynamic: true });
      expect(copies[1].shortCode).not.toBe(copies[0].shortCode);
    });

    it('follows the list filters and sort', async () => {
      const { key } = await t.newAccount();
      for (const name of ['b', 'a', 'c']) await createQr(t, key, { name });
      await createQr(t, key, { type: 'text', content: { text: 'x' }, name: 'text one' });
      const res = await t.request({ method: 'GET', url: '/api/v1/qrcodes.csv?type=url&sort=name-desc', headers: auth(key) });
      expectStatus(res, 200);
      const rows = parse<Record<string, string>>(res.body, { columns: true });
      expect(rows.map((row) => row.name)).toEqual(['c', 'b', 'a']);
      expect(Object.keys(rows[0]).slice(0, 7)).toEqual(['type', 'name', 'is_dynamic', 'folder_id', 'folder_name', 'short_code', 'style']);
      expectFieldErrors(await t.request({ method: 'GET', url: '/api/v1/qrcodes.csv?sort=sideways', headers: auth(key) }), 'sort');
    });
  });
});

// Several instances on one database: PostgreSQL (the embedded database serves one process).
describeWhen(HAS_POSTGRES)('imports across a restart (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // This instance serves the API only: the siblings (workers) run the jobs.
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, ROLE: 'api' });
  });
  afterAll(() => t?.close());

  const postImport = (key: string, csv: string) =>
    t.request({ method: 'POST', url: '/api/v1/imports', headers: { ...auth(key), ...CSV }, payload: csv });
  const finished = (key: string, path: string) => finishedJob(t, key, path);

  it('an instance stopped mid-import leaves it to another, which resumes it without duplicates', async () => {
    const { key, accountId } = await t.newAccount();
    // No grace at shutdown: the import stops at its next batch and is handed back.
    const first = await t.startSibling({ ROLE: 'worker', SHUTDOWN_GRACE_MS: '0' });
    const res = await postImport(
      key,
      urlRowsCsv(10_000, (i) => i % 100 === 0),
    );
    expectStatus(res, 202);
    const id = res.json<Job>().id;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = await t.prisma.job.findUniqueOrThrow({ where: { id } });
      if (job.done > 0) break;
      if (Date.now() > deadline) throw new Error('the import never started');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.close();
    const stopped = await t.prisma.job.findUniqueOrThrow({ where: { id } });
    expect(stopped.done).toBeLessThan(10_000);
    // Handed back at shutdown: queued again, its attempt not counted.
    expect(stopped).toMatchObject({ status: 'queued', leaseToken: null, attempts: 0 });
    await t.startSibling({ ROLE: 'worker' });
    const job = await finished(key, `/api/v1/imports/${id}`);
    expect(job).toMatchObject({ status: 'done', counts: { created: 9900, failed: 100, valid: 0 } });
    expect(await countCodes(t, accountId)).toBe(9900);
    expect(await t.prisma.importRow.count({ where: { jobId: id } })).toBe(10_000);
    const names = await t.prisma.qrCode.groupBy({ by: ['name'], where: { accountId }, having: { name: { _count: { gt: 1 } } } });
    expect(names).toEqual([]);
  }, 120_000);
});
