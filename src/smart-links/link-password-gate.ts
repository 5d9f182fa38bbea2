import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type GatedSubject, type PasswordAttempt, PasswordGate } from '../infra/http/password-gate';
import { linkPasswordMatches } from './settings/link-password';
import { VisitorHasher } from '../scans/visitor-hash';
import type { LinkTarget } from './link-target';

export { PASSWORD_ATTEMPTS } from '../infra/http/password-gate';

/**
 * The password of a protected short link (docs/smart-links.md#password), through the one password
 * gate: its cookie is scoped to the link's path, its attempts counted per code.
 */
@Injectable()
export class LinkPasswordGate {
  private readonly gate: PasswordGate;

  constructor(visitors: VisitorHasher, @Inject(ThrottlerStorage) attempts: ThrottlerStorage, @Inject(APP_CONFIG) config: AppConfig) {
    let key: Buffer | undefined;
    const signingKey = () => (key ??= visitors.derivedKey('link-password-cookie'));
    this.gate = new PasswordGate('link-password', attempts, signingKey, linkPasswordMatches, config.redirectUrl.startsWith('https:'));
  }

  static cookieName(shortCode: string): string {
    return `qr_pw_${shortCode}`;
  }

  /** Whether the visit carries a valid cookie for this link (or the link has no password). */
  accepts(target: LinkTarget, shortCode: string, cookieHeader: string | undefined, now: number): boolean {
    return this.gate.accepts(subjectOf(target, shortCode), cookieHeader, now);
  }

  /** Checks a password sent from the link's form: limited attempts, then argon2. */
  attempt(target: LinkTarget, shortCode: string, visitorAddress: string, password: string, now: number): Promise<PasswordAttempt> {
    return this.gate.attempt(subjectOf(target, shortCode), visitorAddress, password, now);
  }
}

function subjectOf(target: LinkTarget, shortCode: string): GatedSubject {
  return { id: target.codeId, passwordHash: target.passwordHash, cookieName: LinkPasswordGate.cookieName(shortCode), cookiePath: `/r/${shortCode}` };
}
