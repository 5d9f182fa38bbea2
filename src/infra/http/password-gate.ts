import type { ThrottlerStorage } from '@nestjs/throttler';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long an accepted password opens its page in that browser. */
export const PASSWORD_COOKIE_SECONDS = 15 * 60;
/** Attempts per visitor (address) and subject, and per subject from everyone, in a window: argon2 work and guesses are both bounded. */
export const PASSWORD_ATTEMPTS = { perVisitor: 5, perSubject: 100, windowMs: 15 * 60_000 } as const;

export type PasswordAttempt = { kind: 'accepted'; cookie: string } | { kind: 'wrong' } | { kind: 'too_many' };

/** What a password protects: a short link, a stats page; its cookie is scoped to `cookiePath`. */
export interface GatedSubject {
  id: string;
  passwordHash: string | null;
  cookieName: string;
  cookiePath: string;
}

/**
 * A password in front of a public page (docs/smart-links.md#password, docs/sharing.md#stats-pages):
 * a right password sets a signed, HttpOnly, SameSite=Lax cookie for the subject's path, valid
 * PASSWORD_COOKIE_SECONDS and only while the password stays the same (its hash is part of what is
 * signed). Attempts are limited per visitor and per subject in the rate limiter's shared storage
 * (Redis when configured). `kind` keeps each user's attempts and signatures apart.
 */
export class PasswordGate {
  constructor(
    private readonly kind: string,
    private readonly attempts: ThrottlerStorage,
    private readonly key: () => Buffer,
    private readonly matches: (passwordHash: string, password: string) => Promise<boolean>,
    private readonly secure: boolean,
  ) {}

  /** Whether the request carries a valid cookie for the subject (or the subject has no password). */
  accepts(subject: GatedSubject, cookieHeader: string | undefined, now: number): boolean {
    if (subject.passwordHash === null) return true;
    if (!cookieHeader) return false;
    const token = cookieValue(cookieHeader, subject.cookieName);
    if (!token) return false;
    const [expiresText, signature] = token.split('.');
    const expires = Number(expiresText);
    if (!signature || !Number.isSafeInteger(expires) || expires * 1000 <= now) return false;
    // Compared as text: base64url's last character carries spare bits, so two spellings decode alike.
    const expected = Buffer.from(this.sign(subject, expires).toString('base64url'));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Checks a password sent from the subject's form: limited attempts, then the hash. */
  async attempt(subject: GatedSubject, visitorAddress: string, password: string, now: number): Promise<PasswordAttempt> {
    const { perVisitor, perSubject, windowMs } = PASSWORD_ATTEMPTS;
    const [visitor, all] = await Promise.all([
      this.attempts.increment(`${this.kind}:${subject.id}:${visitorAddress}`, windowMs, perVisitor, windowMs, this.kind),
      this.attempts.increment(`${this.kind}:${subject.id}`, windowMs, perSubject, windowMs, this.kind),
    ]);
    if (visitor.isBlocked || all.isBlocked || visitor.totalHits > perVisitor || all.totalHits > perSubject) return { kind: 'too_many' };
    if (subject.passwordHash === null || !(await this.matches(subject.passwordHash, password))) return { kind: 'wrong' };
    const expires = Math.floor(now / 1000) + PASSWORD_COOKIE_SECONDS;
    const value = `${expires}.${this.sign(subject, expires).toString('base64url')}`;
    const attributes = [
      `Path=${subject.cookiePath}`,
      `Max-Age=${PASSWORD_COOKIE_SECONDS}`,
      'HttpOnly',
      'SameSite=Lax',
      ...(this.secure ? ['Secure'] : []),
    ];
    return { kind: 'accepted', cookie: `${subject.cookieName}=${value}; ${attributes.join('; ')}` };
  }

  private sign(subject: GatedSubject, expires: number): Buffer {
    return createHmac('sha256', this.key()).update(`${subject.id}\n${expires}\n${subject.passwordHash}`).digest();
  }
}

function cookieValue(header: string, name: string): string | null {
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
