import type { QrCodeId } from '../../common/ids/resource-ids';
import type { ScanEvent } from '../scan-event';
import { VisitorHasher } from '../visitor-hash';

export const IPHONE_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
export const SCANNED_CODE = '5f0c6d7e-0000-4000-8000-0000000000c0' as QrCodeId;

/** A recorded scan of SCANNED_CODE from an iPhone in Berlin, with a referrer that needs escaping; overrides change any field. */
export const scanEvent = (overrides: Partial<ScanEvent> = {}): ScanEvent => ({
  codeId: SCANNED_CODE,
  at: Date.UTC(2026, 10, 22, 9, 30, 0, 123),
  userAgent: IPHONE_AGENT,
  referrer: 'https://news.example/a?b="c"',
  ip: '203.0.113.9',
  isBot: false,
  country: 'DE',
  city: 'Berlin',
  ...overrides,
});

/** Visitor hashes under a fixed secret, as a batch writer of tests makes them. */
export const TEST_VISITORS = VisitorHasher.withSecret('test-visitor-secret');
