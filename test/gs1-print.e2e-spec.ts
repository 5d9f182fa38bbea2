import { compressPath } from '../src/gs1/syntax/compression';
import { rasterisePdf } from './support/pdf-raster';
import { rasteriseSvg } from './support/decode-svg';
import { decodeWithAll, misreadBy, stopZxingCpp1Reader } from './support/qr-decoders';
import { auth, expectFieldErrors, expectStatus, GENEROUS_RATE_LIMIT } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

const PATH = '/01/09506000134352/10/LOT42';

/** A GS1 item printed: its code encodes the exact Digital Link URI, read by four decoders, with GS1's guidance applied. */
describe('GS1 items for print (e2e)', () => {
  let t: TestApp;
  let key: string;
  let item: { id: string; uri: string; hri: string };

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/gs1/items',
      headers: auth(key),
      payload: {
        path: PATH,
        name: 'Risotto rice',
        links: [{ link_type: 'gs1:pip', href: 'https://brand.example/rice', title: 'Product', default: true }],
      },
    });
    expectStatus(res, 201);
    item = res.json();
  });
  afterAll(async () => {
    stopZxingCpp1Reader();
    await t?.close();
  });

  const download = (path: string) => t.request({ method: 'GET', url: `/api/v1/gs1/items/${item.id}${path}`, headers: auth(key) });

  it('a PDF 25 mm wide decodes to the exact URI with four decoders', async () => {
    expect(item.uri).toBe(`http://qr.test/gs1${PATH}`);
    const res = await download('/export?format=pdf&width_mm=25&hri=false');
    expectStatus(res, 200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(Number(res.headers['x-qr-module-size-mm'])).toBeGreaterThanOrEqual(0.396);
    const raster = rasterisePdf(res.rawPayload, 254); // 10 px per mm
    expect(misreadBy(await decodeWithAll(raster), item.uri)).toEqual([]);
  }, 60_000);

  it('with the HRI as its frame text (wide enough to read it: 25 mm is refused, naming width_mm), it still decodes', async () => {
    expect(item.hri).toBe('(01) 09506000134352 (10) LOT42');
    expectFieldErrors(await download('/export?format=pdf&width_mm=25'), 'width_mm');
    const res = await download('/export?format=pdf&width_mm=35');
    expectStatus(res, 200);
    expect(misreadBy(await decodeWithAll(rasterisePdf(res.rawPayload, 254)), item.uri)).toEqual([]);
  }, 60_000);

  it('the SVG image encodes the URI; compressed=true encodes the compressed form', async () => {
    const svg = await download('/image?size=400');
    expectStatus(svg, 200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(misreadBy(await decodeWithAll(rasteriseSvg(svg.body)), item.uri)).toEqual([]);
    const compressed = await download('/image?size=400&compressed=true');
    expectStatus(compressed, 200);
    const expected = compressPath('http://qr.test/gs1', PATH);
    expect(misreadBy(await decodeWithAll(rasteriseSvg(compressed.body)), expected)).toEqual([]);
  }, 60_000);

  it('refuses a print too small for a till and unknown parameters, naming them', async () => {
    expectFieldErrors(await download('/export?format=pdf&width_mm=12'), 'width_mm');
    expectFieldErrors(await download('/image?compressed=yes'), 'compressed');
    expectFieldErrors(await download('/image?logo=1'), 'logo');
  });
});
