import type { AppConfig } from '../config/app-config';
import { MemoryThrottlerStorage } from '../infra/rate-limit/memory-throttler-storage';
import { hashLinkPassword } from './settings/link-password';
import { VisitorHasher } from '../scans/visitor-hash';
import { LinkPasswordGate } from './link-password-gate';
import type { LinkTarget } from './link-target';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('LinkPasswordGate', () => {
  const now = Date.UTC(2026, 10, 27, 12);
  const config = { redirectUrl: 'https://qr.example' } as AppConfig;
  let gate: LinkPasswordGate;
  let target: LinkTarget;
  let cookie: string;

  beforeAll(async () => {
    gate = new LinkPasswordGate(VisitorHasher.withSecret('test secret'), new MemoryThrottlerStorage(() => now), config);
    target = { codeId: 'code-1', passwordHash: await hashLinkPassword('correct horse') } as unknown as LinkTarget;
    const attempt = await gate.attempt(target, 'abc123', '203.0.113.7', 'correct horse', now);
    if (attempt.kind !== 'accepted') throw new Error(`expected the password to be accepted, got ${attempt.kind}`);
    cookie = attempt.cookie.split(';')[0];
  });

  it('sets a Secure, HttpOnly cookie for the link path only', async () => {
    const attempt = await gate.attempt(target, 'abc123', '203.0.113.8', 'correct horse', now);
    expect(attempt.kind === 'accepted' && attempt.cookie).toMatch(
      /^qr_pw_abc123=\d+\.[\w-]{43}; Path=\/r\/abc123; Max-Age=900; HttpOnly; SameSite=Lax; Secure$/,
    );
  });

  it('accepts its own cookie, not after it expires, not for another link', () => {
    expect(gate.accepts(target, 'abc123', cookie, now)).toBe(true);
    expect(gate.accepts(target, 'abc123', cookie, now + 15 * 60_000)).toBe(false);
    expect(gate.accepts({ ...target, codeId: 'code-2' } as unknown as LinkTarget, 'abc123', cookie, now)).toBe(false);
    expect(gate.accepts({ ...target, passwordHash: 'another hash' }, 'abc123', cookie, now)).toBe(false);
  });

  // The signature's last base64url character carries two spare bits: every other spelling of it must fail.
  it('refuses every other last character of the signature, including spellings that decode to the same bytes', () => {
    const last = cookie.at(-1) ?? '';
    const forged = [...BASE64URL].filter((c) => c !== last).map((c) => cookie.slice(0, -1) + c);
    expect(forged.filter((value) => gate.accepts(target, 'abc123', value, now))).toEqual([]);
  });

  it('refuses a wrong password, then every attempt after five from one visitor', async () => {
    const results = [];
    for (let i = 0; i < 6; i++) results.push((await gate.attempt(target, 'abc123', '198.51.100.1', 'wrong', now)).kind);
    expect(results).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'wrong', 'too_many']);
    expect((await gate.attempt(target, 'abc123', '198.51.100.1', 'correct horse', now)).kind).toBe('too_many');
  });
});
