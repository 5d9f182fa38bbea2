import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, describeWhen, HAS_CHROMIUM } from './support/environment';
import { GENEROUS_RATE_LIMIT } from './support/factories';
import { freePort } from './support/free-port';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';

/**
 * The first click works: a person opens /docs in a browser, authorizes, and executes the
 * pre-filled example of an operation, which answers its success status in the page.
 */
describeWhen(HAS_CHROMIUM)('Swagger UI in Chromium (e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let key: string;

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, BASE_URL: `http://127.0.0.1:${port}` });
    await t.app.listen({ port, host: '127.0.0.1' });
    ({ key } = await t.newAccount());
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Authorize → fills the scheme's value → Authorize → Close, as a person does. */
  async function authorize(scheme: string, value: string): Promise<void> {
    await page.locator('.swagger-ui .auth-wrapper button.authorize').first().click();
    const form = page.locator('.swagger-ui .modal-ux form').filter({ hasText: `${scheme} (apiKey)` });
    await form.locator('input').fill(value);
    await form.getByRole('button', { name: 'Apply credentials' }).click();
    await form.getByRole('button', { name: 'Close' }).click();
  }

  /** Opens the operation, Try it out → Execute with the pre-filled example; returns the status shown and the body. */
  async function executeExample(tag: string, operationId: string): Promise<{ status: string; body: string }> {
    const operation = page.locator(`#operations-${tag}-${operationId}`);
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table .response');
    await live.waitFor({ timeout: 15_000 });
    return {
      status: (await live.locator('.response-col_status').innerText()).trim(),
      body: await live.locator('.response-col_description .microlight').first().innerText(),
    };
  }

  it('creates a QR code with the pre-filled example after authorizing with a fresh key: 201', async () => {
    await authorize('api-key', key);
    const { status, body } = await executeExample('qrcodes', 'createQrCode');
    expect(status).toBe('201');
    expect(JSON.parse(body)).toMatchObject({ name: 'Spring poster', type: 'url', is_dynamic: true, status: 'active' });
    expect(await page.locator('#operations-qrcodes-createQrCode').innerText()).not.toMatch(/Undocumented/);
  }, 60_000);

  it('creates an API key with the pre-filled example after authorizing with the admin token: 201', async () => {
    await authorize('admin-token', ADMIN_TOKEN);
    const { status, body } = await executeExample('admin', 'createApiKey');
    expect(status).toBe('201');
    const created = JSON.parse(body);
    expect(created).toMatchObject({ name: 'marketing', key: expect.stringMatching(/^qr_live_/) });
    const works = await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: { 'x-api-key': created.key } });
    expect(works.statusCode).toBe(200);
  }, 60_000);
});
