import { createHash } from 'node:crypto';
import { dailyVisitorKey, VisitorHasher, visitorHash } from './visitor-hash';

const NOON = Date.UTC(2026, 10, 22, 12);
const UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)';

describe('visitorHash', () => {
  const key = dailyVisitorKey('deployment-secret', NOON);

  it('is 32 hex characters, the same for the same visitor on the same day', () => {
    expect(visitorHash(key, '203.0.113.9', UA)).toMatch(/^[0-9a-f]{32}$/);
    expect(visitorHash(key, '203.0.113.9', UA)).toBe(visitorHash(dailyVisitorKey('deployment-secret', NOON + 3600_000), '203.0.113.9', UA));
  });

  it.each([
    ['another IP', (k: string) => visitorHash(k, '203.0.113.10', UA)],
    ['another user agent', (k: string) => visitorHash(k, '203.0.113.9', `${UA} Edge`)],
    ['no user agent', (k: string) => visitorHash(k, '203.0.113.9', null)],
    ['the next UTC day', () => visitorHash(dailyVisitorKey('deployment-secret', NOON + 86_400_000), '203.0.113.9', UA)],
    ['another deployment', () => visitorHash(dailyVisitorKey('other-secret', NOON), '203.0.113.9', UA)],
  ])('differs for %s', (_label, other) => {
    expect(other(key)).not.toBe(visitorHash(key, '203.0.113.9', UA));
  });

  it('depends on the secret key: the unkeyed hash of IP and user agent is something else', () => {
    const unkeyed = createHash('sha256').update(`203.0.113.9\n${UA}`).digest('hex').slice(0, 32);
    expect(visitorHash(key, '203.0.113.9', UA)).not.toBe(unkeyed);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('VisitorHasher', () => {
  it("hashes each scan with its own UTC day's key, the scans of two days in any order", () => {
    const hasher = VisitorHasher.withSecret('deployment-secret');
    const before = NOON - 12 * 3600_000 - 1; // 23:59:59.999 of the day before
    const expected = (at: number) => visitorHash(dailyVisitorKey('deployment-secret', at), '203.0.113.9', UA);
    for (const at of [NOON, before, NOON + 1, before, NOON]) expect(hasher.hash(at, '203.0.113.9', UA)).toBe(expected(at));
    expect(hasher.hash(NOON, '203.0.113.9', UA)).not.toBe(hasher.hash(before, '203.0.113.9', UA));
  });

  it('loads the secret once, hashes nothing before, and tries a failed load again', async () => {
    const loads: Array<'fail' | 'ok'> = ['fail', 'ok'];
    let calls = 0;
    const hasher = new VisitorHasher(async () => {
      calls++;
      if (loads.shift() === 'fail') throw new Error('database unavailable');
      return 'deployment-secret';
    });
    expect(() => hasher.hash(NOON, '203.0.113.9', UA)).toThrow(/not loaded/);
    await expect(hasher.ready()).rejects.toThrow('database unavailable');
    await Promise.all([hasher.ready(), hasher.ready()]);
    await hasher.ready();
    expect(calls).toBe(2);
    expect(hasher.hash(NOON, '203.0.113.9', UA)).toBe(visitorHash(dailyVisitorKey('deployment-secret', NOON), '203.0.113.9', UA));
  });
});
