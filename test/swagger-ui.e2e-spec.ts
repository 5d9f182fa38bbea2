import type { OpenAPIObject } from '@nestjs/swagger';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, describeWhen, HAS_CHROMIUM } from './support/environment';
import { GENEROUS_RATE_LIMIT } from './support/factories';
import { freePort } from './support/free-port';
import { type DocumentedOperation, operationsOf, parametersOf } from './support/openapi';
import { ADMIN_TOKEN, startTestApp, type TestApp } from './support/test-app';
import { TestDnsServer } from './support/dns-server';

/** A GTIN-14 of 13 digits and its GS1 check digit (weights 3 and 1 from the right). */
const withCheckDigit = (digits: string): string => {
  const sum = [...digits].reverse().reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 3 : 1), 0);
  return `${digits}${(10 - (sum % 10)) % 10}`;
};

/**
 * The first hour works: a person opens /docs at whatever address they typed (127.0.0.1 or
 * localhost, neither of them BASE_URL's), authorizes with a key and the admin token, and executes
 * every operation's pre-filled examples in one session, in document order and then in reverse:
 * every one answers 2xx in the page. Path ids are the ones a person would paste: the resource the
 * create example answered, a delivery the list shows, and for a delete something made to be deleted.
 */
describeWhen(HAS_CHROMIUM).each([
  { pageHost: '127.0.0.1', otherHost: 'localhost' },
  { pageHost: 'localhost', otherHost: '127.0.0.1' },
])('Swagger UI in Chromium, opened at $pageHost (e2e)', ({ pageHost, otherHost }) => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let key: string;
  let operations: DocumentedOperation[];
  /** The first resource each collection's pre-filled create example answered in the page. */
  const created = new Map<string, Record<string, unknown>>();
  let dns: TestDnsServer;

  beforeAll(async () => {
    const port = await freePort();
    // BASE_URL and REDIRECT_URL name the other loopback name: a call to them from the page would be cross-origin.
    const elsewhere = `http://${otherHost}:${port}`;
    // The domain verify example needs its TXT record: a DNS server publishes every domain's own token.
    dns = await new TestDnsServer().start();
    dns.fallback = async (name) => {
      const domain = await t.prisma.domain.findFirst({ where: { hostname: name.replace(/^_qr-verify\./, '') } });
      return domain ? { txt: [domain.verificationToken] } : undefined;
    };
    t = await startTestApp({ ...GENEROUS_RATE_LIMIT, BASE_URL: elsewhere, REDIRECT_URL: elsewhere, DNS_RESOLVERS: dns.address });
    await t.app.listen({ port, host: '127.0.0.1' });
    ({ key } = await t.newAccount());
    operations = operationsOf((await t.request({ method: 'GET', url: '/docs-json' })).json<OpenAPIObject>());
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    // A step that cannot happen fails in seconds, naming the step, rather than at the test's timeout.
    page.setDefaultTimeout(15_000);
    await page.goto(`http://${pageHost}:${port}/docs`);
    await page.locator('.swagger-ui .info .title').waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await dns?.close();
  });

  /** Authorize → fills the scheme's value → Authorize → Close, as a person does. */
  async function authorize(scheme: string, value: string): Promise<void> {
    await page.locator('.swagger-ui .auth-wrapper button.authorize').first().click();
    const form = page.locator('.swagger-ui .modal-ux form').filter({ hasText: `${scheme} (apiKey)` });
    await form.locator('input').fill(value);
    await form.getByRole('button', { name: 'Apply credentials' }).click();
    await form.getByRole('button', { name: 'Close' }).click();
  }

  const api = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object): Promise<Record<string, any>> => {
    const res = await t.request({ method, url, payload, headers: { 'x-api-key': key, 'x-admin-token': ADMIN_TOKEN } });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };

  /** Something to delete that the rest of the session does not use, as a person would make one to try delete on. */
  const SPARES: Record<string, () => Promise<Record<string, any>>> = {
    '/api/v1/admin/api-keys': () => api('POST', '/api/v1/admin/api-keys', { name: 'to revoke' }),
    '/api/v1/api-keys': () => api('POST', '/api/v1/api-keys', { name: 'to revoke' }),
    '/api/v1/folders': () => api('POST', '/api/v1/folders', { name: 'to delete' }),
    '/api/v1/qrcodes': () => api('POST', '/api/v1/qrcodes', { type: 'text', content: { text: 'to delete' } }),
    '/api/v1/webhooks': () => api('POST', '/api/v1/webhooks', { url: 'https://example.com/to-delete', events: ['*'] }),
    '/api/v1/domains': () => api('POST', '/api/v1/domains', { hostname: `to-delete-${Math.random().toString(36).slice(2, 10)}.example.com` }),
    '/api/v1/tags': () => api('POST', '/api/v1/tags', { name: `to-delete-${Math.random().toString(36).slice(2, 10)}` }),
    '/api/v1/brand-kits': () => api('POST', '/api/v1/brand-kits', { name: 'to delete', style: { dotsOptions: { type: 'square' } } }),
    '/api/v1/gs1/items': () =>
      api('POST', '/api/v1/gs1/items', {
        path: `/01/${withCheckDigit(`0950600${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`)}`,
        links: [{ link_type: 'gs1:pip', href: 'https://brand.example/to-delete', title: 'To delete', default: true }],
      }),
    // Share and image links are made under a code: the code the create example made.
    '/api/v1/share-links': () => api('POST', `/api/v1/qrcodes/${String(created.get('/api/v1/qrcodes')?.id)}/share-links`, {}),
    '/api/v1/image-links': () => api('POST', `/api/v1/qrcodes/${String(created.get('/api/v1/qrcodes')?.id)}/image-links`, {}),
  };

  /** The value a person would paste into each path parameter of `op`. */
  async function pathValues(op: DocumentedOperation): Promise<Record<string, string>> {
    const collection = op.path.slice(0, op.path.indexOf('/{'));
    const values: Record<string, string> = {};
    for (const { name } of parametersOf(op, 'path')) {
      if (name === 'id' && op.method === 'delete') values.id = (await SPARES[collection]()).id;
      else if (name === 'id') values.id = String(created.get(collection)?.id);
      else if (name === 'token_id') values.token_id = (await SPARES[collection]()).token_id;
      else if (name === 'name' && op.method === 'delete') values.name = (await SPARES[collection]()).name;
      else if (name === 'name') values.name = String(created.get(collection)?.name);
      else if (name === 'delivery_id') {
        const webhook = String(created.get('/api/v1/webhooks')?.id);
        values.delivery_id = (await api('GET', `/api/v1/webhooks/${webhook}/deliveries`)).data[0].id;
      } else if (name === 'short_code') {
        // A dynamic code that is not a url: the browser would follow a url code's 302 to its target, off this machine.
        values.short_code = (await api('GET', '/api/v1/qrcodes?is_dynamic=true&type=text')).data[0].short_code;
      } else if (name === 'version') {
        // The first version of a code's history: every code has it.
        values.version = '1';
      } else throw new Error(`${op.label}: no value for the path parameter ${name}`);
    }
    return values;
  }

  const exampleNames = (op: DocumentedOperation): Array<string | undefined> => {
    const examples = (op.operation.requestBody as { content?: Record<string, { examples?: object }> } | undefined)?.content?.['application/json']
      ?.examples;
    return examples ? Object.keys(examples) : [undefined];
  };

  /** Opens the operation, Try it out, fills the path parameters, picks the example, Execute; the status and body shown. */
  async function execute(operation: Locator, path: Record<string, string>, example: string | undefined): Promise<{ status: string; body: string }> {
    if (!(await operation.locator('.opblock-body').isVisible())) await operation.locator('.opblock-summary').first().click();
    // "Try it out" once per operation; it reads "Cancel" while the operation is in try-it-out mode.
    const tryItOut = operation.locator('button.try-out__btn');
    if ((await tryItOut.innerText()).trim() === 'Try it out') await tryItOut.click();
    await operation.getByRole('button', { name: 'Execute' }).waitFor();
    for (const [name, value] of Object.entries(path)) {
      await operation.locator(`tr[data-param-name="${name}"][data-param-in="path"] input`).fill(value);
    }
    if (example !== undefined) await operation.locator('.opblock-section-request-body select.examples-select-element').selectOption(example);
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table .response');
    await live.waitFor({ timeout: 15_000 });
    const status = (await live.locator('.response-col_status').innerText()).trim();
    const text = live.locator('.response-col_description .microlight');
    const body = (await text.count()) > 0 ? await text.first().innerText() : '';
    await operation.getByRole('button', { name: 'Clear' }).click();
    await live.waitFor({ state: 'detached' });
    return { status, body };
  }

  /** Executes every example of every operation in `order`; the ones that did not answer 2xx. */
  async function executeAll(order: DocumentedOperation[], before?: (op: DocumentedOperation) => Promise<void>): Promise<string[]> {
    const problems: string[] = [];
    for (const op of order) {
      await before?.(op);
      const operation = page.locator(`#operations-${op.operation.tags?.[0]}-${op.operation.operationId}`);
      const path = await pathValues(op);
      for (const example of exampleNames(op)) {
        const { status, body } = await execute(operation, path, example);
        if (!/^2\d\d$/.test(status)) problems.push(`${op.label} [${example ?? 'no body'}]: ${status} ${body.slice(0, 300)}`);
        else if (op.method === 'post' && !op.path.includes('{') && !created.has(op.path)) created.set(op.path, JSON.parse(body));
      }
      // Closed again: every open operation makes Swagger UI's next render slower.
      await operation.locator('.opblock-summary').first().click();
      await operation.locator('.opblock-body').waitFor({ state: 'detached' });
    }
    return problems;
  }

  it("authorizes with a fresh key and the admin token; the server offered first is the page's origin", async () => {
    await authorize('api-key', key);
    await authorize('admin-token', ADMIN_TOKEN);
    expect(await page.locator('.swagger-ui .auth-wrapper button.authorize.locked').count()).toBe(1);
    // The calls go to the page's own origin, not BASE_URL's (another host name: cross-origin, blocked).
    expect(await page.locator('.swagger-ui .servers select').inputValue()).toBe('/');
  }, 30_000);

  it("executes every operation's examples in document order: each answers 2xx in the page", async () => {
    expect(await executeAll(operations)).toEqual([]);
    expect(created.get('/api/v1/qrcodes')).toMatchObject({ name: 'Spring poster', type: 'url', is_dynamic: true, status: 'active' });
    const madeByExample = created.get('/api/v1/admin/api-keys') as { key: string };
    const works = await t.request({ method: 'GET', url: '/api/v1/qrcodes', headers: { 'x-api-key': madeByExample.key } });
    expect(works.statusCode).toBe(200);
  }, 900_000);

  it('then executes them all again in reverse order, in the same session: each answers 2xx', async () => {
    // A hostname, a tag name and a GS1 path are taken once: just before their create example runs
    // again, what the first pass made goes.
    const removeFirstMade = async (op: DocumentedOperation) => {
      const first = created.get(op.path);
      if (op.method !== 'post' || !first) return;
      if (op.path === '/api/v1/domains') await api('DELETE', `/api/v1/domains/${String(first.id)}?force=true`);
      if (op.path === '/api/v1/tags') await api('DELETE', `/api/v1/tags/${encodeURIComponent(String(first.name))}`);
      if (op.path === '/api/v1/gs1/items') await api('DELETE', `/api/v1/gs1/items/${String(first.id)}`);
    };
    expect(await executeAll([...operations].reverse(), removeFirstMade)).toEqual([]);
  }, 900_000);
});
