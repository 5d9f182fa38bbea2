import type { QrCodeId } from '../../src/common/ids/resource-ids';
import type { LightMyRequestResponse } from 'fastify';
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../src/generated/prisma/client';
import type { ScanEvent } from '../../src/scans/scan-event';
import type { TestApp } from './test-app';

/**
 * Request bodies and helpers for the QR code e2e files. Every factory returns a fresh object, so
 * tests can mutate what they get; `overrides` replace top-level fields (content included, whole).
 */

export const QR_TYPES = ['url', 'text', 'email', 'phone', 'sms', 'wifi', 'vcard', 'geo', 'event'] as const;
export type QrTypeName = (typeof QR_TYPES)[number];

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** ISO 8601 in UTC with milliseconds, as toISOString writes it. */
export const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const SHORT_CODE = /^[0-9A-Za-z]{7,}$/;
export const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
/** Functional suites must not trip the write budget (120 a minute by default); the rate-limit tests set their own. */
export const GENEROUS_RATE_LIMIT = { RATE_LIMIT_PER_MINUTE: '100000' };

/** A valid content object of each type, with the string it must encode to. */
export const CONTENT_SAMPLES: Record<QrTypeName, { content: Record<string, unknown>; contentString: string }> = {
  url: { content: { url: 'https://example.com/spring?utm=qr' }, contentString: 'https://example.com/spring?utm=qr' },
  text: { content: { text: 'Table 12, ask for the special' }, contentString: 'Table 12, ask for the special' },
  email: {
    content: { to: 'hello@example.com', subject: 'Order 12', body: 'Hi there' },
    contentString: 'mailto:hello@example.com?subject=Order%2012&body=Hi%20there',
  },
  phone: { content: { number: '+49 30 1234567' }, contentString: 'tel:+49301234567' },
  sms: { content: { number: '+1 (555) 010-9999', message: 'JOIN' }, contentString: 'SMSTO:+15550109999:JOIN' },
  wifi: { content: { ssid: 'CafeGuest', password: 'hunter22', encryption: 'WPA' }, contentString: 'WIFI:T:WPA;S:CafeGuest;P:hunter22;;' },
  vcard: {
    content: { first_name: 'Ada', last_name: 'Lovelace', organization: 'Engines Ltd', email: 'ada@example.com' },
    contentString:
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lovelace;Ada;;;\r\nFN:Ada Lovelace\r\nORG:Engines Ltd\r\nEMAIL;TYPE=INTERNET:ada@example.com\r\nEND:VCARD\r\n',
  },
  geo: { content: { latitude: 52.520008, longitude: 13.404954 }, contentString: 'geo:52.520008,13.404954' },
  event: {
    content: { title: 'Open day', start: '2030-06-01T18:00:00+02:00', end: '2030-06-01T21:00:00+02:00', location: 'Main Hall' },
    contentString: 'BEGIN:VEVENT\r\nSUMMARY:Open day\r\nDTSTART:20300601T160000Z\r\nDTEND:20300601T190000Z\r\nLOCATION:Main Hall\r\nEND:VEVENT\r\n',
  },
};

export function contentOf(type: QrTypeName = 'url'): Record<string, unknown> {
  return structuredClone(CONTENT_SAMPLES[type].content);
}

/** A valid create body (single create and bulk item) of the type. */
export function qrInput(type: QrTypeName = 'url', overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { type, content: contentOf(type), ...overrides };
}

export const auth = (key: string) => ({ 'x-api-key': key });

/** POSTs a create body (a url code by default, fields replaced by `overrides`); fails the test unless 201. */
export async function createQr(t: TestApp, key: string, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const type = (overrides.type as QrTypeName | undefined) ?? 'url';
  const res = await t.request({ method: 'POST', url: '/api/v1/qrcodes', headers: auth(key), payload: qrInput(type, overrides) });
  expectStatus(res, 201);
  return res.json();
}

/** Creates a folder; fails the test unless 201. */
export async function createFolder(t: TestApp, key: string, name = 'Folder'): Promise<Record<string, any>> {
  const res = await t.request({ method: 'POST', url: '/api/v1/folders', headers: auth(key), payload: { name } });
  expectStatus(res, 201);
  return res.json();
}

export async function getQr(t: TestApp, key: string, id: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'GET', url: `/api/v1/qrcodes/${id}`, headers: auth(key) });
}

export async function updateQr(t: TestApp, key: string, id: string, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return t.request({ method: 'PUT', url: `/api/v1/qrcodes/${id}`, headers: auth(key), payload });
}

/** Asserts the status with the body in the failure message (a bare 400 says nothing about why). */
export function expectStatus(res: LightMyRequestResponse, status: number): void {
  if (res.statusCode !== status) throw new Error(`expected HTTP ${status}, got ${res.statusCode}: ${res.body.slice(0, 2000)}`);
}

/** The one error shape (docs/errors.md). */
export function expectErrorBody(res: LightMyRequestResponse, status: number): Record<string, any> {
  expectStatus(res, status);
  const body = res.json();
  expect(body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
  expect(res.body).not.toMatch(/at .*\.(ts|js):\d+|node_modules|Prisma|SELECT /);
  return body;
}

/** A 400 whose `errors` name `field` (and each other field given). */
export function expectFieldErrors(res: LightMyRequestResponse, ...fields: string[]): Array<{ field: string; message: string }> {
  const body = expectErrorBody(res, 400);
  expect(Array.isArray(body.errors)).toBe(true);
  const named = body.errors.map((error: { field: string }) => error.field);
  expect(named).toEqual(expect.arrayContaining(fields));
  for (const error of body.errors) expect(error).toEqual({ field: expect.any(String), message: expect.any(String) });
  return body.errors;
}

export async function countCodes(t: TestApp, accountId: string): Promise<number> {
  return t.prisma.qrCode.count({ where: { accountId } });
}

/** Inserts one recorded scan of a code (the redirect host's scan_events row) and its rollups. */
export async function insertScanEvent(t: TestApp, qrCodeId: string): Promise<void> {
  const data: Record<string, unknown> = { qrCodeId, device: 'mobile', os: 'iOS', browser: 'Safari', visitorHash: 'a'.repeat(32) };
  // scan_events gains an idempotency id (event_id) with the redirect module; fill it when the schema has it.
  if ('eventId' in Prisma.ScanEventScalarFieldEnum) data.eventId = randomUUID();
  await t.prisma.scanEvent.create({ data: data as Prisma.ScanEventUncheckedCreateInput });
  await rebuildScanRollups(t, [qrCodeId]);
}

/**
 * Rebuilds codes' daily rollups from their scan_events rows, as the migration does: for tests that
 * write scan_events directly instead of through the scan store (which keeps the rollups itself).
 */
export async function rebuildScanRollups(t: Pick<TestApp, 'prisma'>, codeIds: readonly string[]): Promise<void> {
  await t.prisma.$transaction([
    t.prisma.$executeRawUnsafe(`SELECT scan_rollups_remove($1::uuid[], '-infinity', 'infinity')`, codeIds),
    t.prisma.$executeRawUnsafe(`SELECT scan_rollups_build($1::uuid[], '-infinity', 'infinity')`, codeIds),
  ]);
}

/**
 * Polls `probe` until it returns `expected` (or `timeoutMs` passes) and returns the last value: for
 * effects that travel asynchronously (pub/sub, reconnects).
 */
export async function eventually<T>(probe: () => Promise<T>, expected: T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await probe();
  }
  return value;
}

/** A scan as the redirect records it (ScanEvent), of codeId, now; overrides change any field. */
export function recordedScan(codeId: string, overrides: Partial<ScanEvent> = {}): ScanEvent {
  return {
    codeId: codeId as QrCodeId,
    at: Date.now(),
    userAgent: null,
    referrer: null,
    ip: '203.0.113.9',
    isBot: false,
    country: null,
    city: null,
    ...overrides,
  };
}

const realNow = Date.now.bind(Date);

/** A clock the test moves forward (time travel for schedules), starting at the real time (even while a test stubs Date.now). */
export class TestClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(realNow() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
