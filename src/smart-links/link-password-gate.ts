import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { linkPasswordMatches } from './settings/link-password';
import { VisitorHasher } from '../scans/visitor-hash';
import type { LinkTarget } from './link-target';

/** How long an accepted password opens its link in that browser. */
export const PASSWORD_COOKIE_SECONDS = 15 * 60;
/** Attempts per visitor (address) and code, and per code from everyone, in a window: argon2 work and guesses are both bounded. */
export const PASSWORD_ATTEMPTS = { perVisitor: 5, perCode: 100, windowMs: 15 * 60_000 } as const;

export type PasswordAttempt = { kind: 'accepted'; cookie: string } | { kind: 'wrong' } | { kind: 'too_many' };

/**
 * The password of a protected link (docs/smart-links.md#password): a right password sets a
 * signed, HttpOnly, SameSite=Lax cookie for that link's path, valid PASSWORD_COOKIE_SECONDS and
 * only while the password stays the same (its hash is part of what is signed). Attempts are
 * limited per visitor and per code in the rate limiter's shared storage (Redis when configured).
 */
@Injectable()
export class LinkPasswordGate {
  private key?: Buffer;
  private readonly secure: boolean;

  constructor(
    private readonly visitors: VisitorHasher,
    @Inject(ThrottlerStorage) private readonly attempts: ThrottlerStorage,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.secure = config.redirectUrl.startsWith('https:');
  }

  static cookieName(shortCode: string): string {
    return `qr_pw_${shortCode}`;
  }

  /** Whether the visit carries a valid cookie for this link (or the link has no password). */
  accepts(target: LinkTarget, shortCode: string, cookieHeader: string | undefined, now: number): boolean {
    if (target.passwordHash === null) return true;
    if (!cookieHeader) return false;
    const token = cookieValue(cookieHeader, LinkPasswordGate.cookieName(shortCode));
    if (!token) return false;
    const [expiresText, signature] = token.split('.');
    const expires = Number(expiresText);
    if (!signature || !Number.isSafeInteger(expires) || expires * 1000 <= now) return false;
    // Compared as text: base64url's last character carries spare bits, so two spellings decode alike.
    const expected = Buffer.from(this.sign(target, expires).toString('base64url'));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Checks a password sent from the link's form: limited attempts, then argon2. */
  async attempt(target: LinkTarget, shortCode: string, visitorAddress: string, password: string, now: number): Promise<PasswordAttempt> {
    const { perVisitor, perCode, windowMs } = PASSWORD_ATTEMPTS;
    const [visitor, code] = await Promise.all([
      this.attempts.increment(`link-password:${target.codeId}:${visitorAddress}`, windowMs, perVisitor, windowMs, 'link-password'),
      this.attempts.increment(`link-password:${target.codeId}`, windowMs, perCode, windowMs, 'link-password'),
    ]);
    if (visitor.isBlocked || code.isBlocked || visitor.totalHits > perVisitor || code.totalHits > perCode) return { kind: 'too_many' };
    if (target.passwordHash === null || !(await linkPasswordMatches(target.passwordHash, password))) return { kind: 'wrong' };
    const expires = Math.floor(now / 1000) + PASSWORD_COOKIE_SECONDS;
    const value = `${expires}.${this.sign(target, expires).toString('base64url')}`;
    const attributes = [`Path=/r/${shortCode}`, `Max-Age=${PASSWORD_COOKIE_SECONDS}`, 'HttpOnly', 'SameSite=Lax', ...(this.secure ? ['Secure'] : [])];
    return { kind: 'accepted', cookie: `${LinkPasswordGate.cookieName(shortCode)}=${value}; ${attributes.join('; ')}` };
  }

  private sign(target: LinkTarget, expires: number): Buffer {
    this.key ??= this.visitors.derivedKey('link-password-cookie');
    return createHmac('sha256', this.key).update(`${target.codeId}\n${expires}\n${target.passwordHash}`).digest();
  }
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
