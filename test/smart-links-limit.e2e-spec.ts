import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Agent, get } from 'node:http';
import { ScanBuffer } from '../src/scans/scan-buffer.service';
import { listenOnLoopback } from './support/browser';
import { describeWhen, HAS_POSTGRES } from './support/environment';
import { createQr, GENEROUS_RATE_LIMIT, getQr } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';
import { USER_AGENTS } from './support/user-agents';

jest.setTimeout(60_000);

const LIMIT = 100;
const SCANS = 400;
const TARGET = 'https://example.com/limited';

interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

/** One scan over a real socket of its own (no keep-alive: every scan is its own connection, all at once). */
function scanOver(origin: string, shortCode: string, agent: Agent, index: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = get(
      `${origin}/r/${shortCode}`,
      { agent, headers: { 'user-agent': USER_AGENTS.iphone.ua, 'x-scan': String(index) } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location, body }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/**
 * max_scans under concurrency (docs/smart-links.md#link-controls): 400 scans at once over real
 * sockets, on one instance and spread over two that share PostgreSQL and Redis; exactly the limit
 * gets the target, every other scan the limit answer, and exactly the limit is counted.
 */
describe('max_scans under concurrent scans (e2e)', () => {
  let t: TestApp;
  let key: string;
  const agent = new Agent({ keepAlive: false, maxSockets: SCANS });

  beforeAll(async () => {
    t = await startTestApp(GENEROUS_RATE_LIMIT);
    ({ key } = await t.newAccount());
  });
  afterAll(async () => {
    agent.destroy();
    await t?.close();
  });

  const origins = new Map<NestFastifyApplication, string>();
  const originOf = async (app: NestFastifyApplication) => {
    if (!origins.has(app)) origins.set(app, await listenOnLoopback(app));
    return origins.get(app)!;
  };

  async function expectExactlyTheLimit(codeId: string, answers: Answer[], buffers: ScanBuffer[], fallback: string | null): Promise<void> {
    const toTarget = answers.filter((answer) => answer.status === 302 && answer.location === TARGET);
    const limited = answers.filter((answer) => !(answer.status === 302 && answer.location === TARGET));
    expect(toTarget).toHaveLength(LIMIT);
    expect(limited).toHaveLength(SCANS - LIMIT);
    if (fallback) expect(limited.every((answer) => answer.status === 302 && answer.location === fallback)).toBe(true);
    else expect(limited.every((answer) => answer.status === 410 && answer.body.includes('Scan limit reached'))).toBe(true);
    for (const buffer of buffers) await buffer.flush();
    expect((await getQr(t, key, codeId)).json().scans).toBe(LIMIT);
    expect(Number((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: codeId } })).scans)).toBe(LIMIT);
    expect(await t.prisma.scanEvent.count({ where: { qrCodeId: codeId } })).toBe(LIMIT);
    expect((await t.prisma.qrCodeScanReservation.findUniqueOrThrow({ where: { qrCodeId: codeId } })).reserved).toBe(LIMIT);
  }

  it(`max_scans = ${LIMIT}, ${SCANS} scans at once on one instance: exactly ${LIMIT} redirects, the rest the limit page`, async () => {
    const code = await createQr(t, key, { content: { url: TARGET }, is_dynamic: true, max_scans: LIMIT });
    const origin = await originOf(t.app);
    const answers = await Promise.all(Array.from({ length: SCANS }, (_, index) => scanOver(origin, code.short_code, agent, index)));
    await expectExactlyTheLimit(code.id, answers, [t.app.get(ScanBuffer)], null);
  });

  it('with a fallback_url: the rest are sent there', async () => {
    const code = await createQr(t, key, {
      content: { url: TARGET },
      is_dynamic: true,
      max_scans: LIMIT,
      fallback_url: 'https://example.com/sold-out',
    });
    const origin = await originOf(t.app);
    const answers = await Promise.all(Array.from({ length: SCANS }, (_, index) => scanOver(origin, code.short_code, agent, index)));
    await expectExactlyTheLimit(code.id, answers, [t.app.get(ScanBuffer)], 'https://example.com/sold-out');
  });

  // The embedded database is one process's: a sibling on it would share nothing.
  describeWhen(HAS_POSTGRES)('two instances sharing PostgreSQL and Redis', () => {
    it(`${SCANS} scans at once, alternating between them: exactly ${LIMIT} redirects in all`, async () => {
      const sibling = await t.startSibling();
      const code = await createQr(t, key, { content: { url: TARGET }, is_dynamic: true, max_scans: LIMIT });
      const [first, second] = [await originOf(t.app), await originOf(sibling.app)];
      const answers = await Promise.all(
        Array.from({ length: SCANS }, (_, index) => scanOver(index % 2 ? second : first, code.short_code, agent, index)),
      );
      const perInstance = [0, 1].map((parity) => answers.filter((answer, index) => index % 2 === parity && answer.location === TARGET).length);
      expect(perInstance[0] + perInstance[1]).toBe(LIMIT);
      await expectExactlyTheLimit(code.id, answers, [t.app.get(ScanBuffer), sibling.app.get(ScanBuffer)], null);
      await sibling.close();
    });
  });
});
