import { Inject, Injectable } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type GatedSubject, type PasswordAttempt, PasswordGate } from '../infra/http/password-gate';
import { VisitorHasher } from '../scans/visitor-hash';
import { linkPasswordMatches } from '../smart-links/settings/link-password';
import type { ShareLinkRecord } from './share-links.repository';

/** The password of a protected stats page (docs/sharing.md#stats-pages), through the one password gate. */
@Injectable()
export class SharePasswords {
  private readonly gate: PasswordGate;

  constructor(visitors: VisitorHasher, @Inject(ThrottlerStorage) attempts: ThrottlerStorage, @Inject(APP_CONFIG) config: AppConfig) {
    let key: Buffer | undefined;
    const signingKey = () => (key ??= visitors.derivedKey('share-password-cookie'));
    this.gate = new PasswordGate('share-password', attempts, signingKey, linkPasswordMatches, config.redirectUrl.startsWith('https:'));
  }

  accepts(link: ShareLinkRecord, cookieHeader: string | undefined, now: number): boolean {
    return this.gate.accepts(subjectOf(link), cookieHeader, now);
  }

  attempt(link: ShareLinkRecord, visitorAddress: string, password: string, now: number): Promise<PasswordAttempt> {
    return this.gate.attempt(subjectOf(link), visitorAddress, password, now);
  }
}

function subjectOf(link: ShareLinkRecord): GatedSubject {
  // The cookie covers the page and its JSON (both under /s/); the name is per link.
  return { id: link.id, passwordHash: link.passwordHash, cookieName: `qr_share_${link.id.replace(/-/g, '')}`, cookiePath: '/s/' };
}
