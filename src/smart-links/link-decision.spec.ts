import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { CompiledRules } from './settings/link-rules-evaluator';
import { decideLink, steadyDecision } from './link-decision';
import type { LinkTarget } from './link-target';

const link = (overrides: Partial<LinkTarget> = {}): LinkTarget => ({
  codeId: 'code-1' as QrCodeId,
  accountId: 'account-1' as AccountId,
  type: 'url',
  contentString: 'https://example.com/a',
  content: { url: 'https://example.com/a' },
  status: 'active',
  expiresAt: null,
  safeLocation: 'https://example.com/a',
  rules: null,
  maxScans: null,
  fallbackLocation: null,
  passwordHash: null,
  utm: null,
  preview: null,
  steady: null,
  ...overrides,
});

const facts = {
  at: Date.UTC(2026, 10, 27),
  query: {},
  acceptLanguage: 'de',
  country: 'DE',
  traits: () => ({ device: null, os: 'other', browser: 'other' }),
  visitorHash: () => 'v',
} as never;

describe('steadyDecision', () => {
  test.each<[string, Partial<LinkTarget>, ReturnType<typeof steadyDecision>]>([
    ['a plain url link', {}, { kind: 'redirect', location: 'https://example.com/a', ruleIndex: null, armIndex: null }],
    [
      'with UTM parameters',
      { utm: { source: 'poster' } },
      { kind: 'redirect', location: 'https://example.com/a?utm_source=poster', ruleIndex: null, armIndex: null },
    ],
    [
      'paused or expired now: decided for when it is live',
      { status: 'paused', expiresAt: 1 },
      { kind: 'redirect', location: 'https://example.com/a', ruleIndex: null, armIndex: null },
    ],
    ['a landing page type', { type: 'vcard', safeLocation: null }, { kind: 'page', ruleIndex: null }],
    ['a refused target', { safeLocation: null }, null],
    ['with rules', { rules: new CompiledRules([{ conditions: { country: ['DE'] }, target: 'https://example.com/de' }], 'code-1') }, null],
    ['with a password', { passwordHash: '$argon2id$…' }, null],
    ['with a scan limit', { maxScans: 10 }, null],
  ])('%s', (_case, overrides, expected) => {
    expect(steadyDecision(link(overrides))).toEqual(expected);
  });

  test('is what decideLink answers a live visit of the same link', () => {
    for (const overrides of [{}, { utm: { source: 'a', medium: 'b' } }, { type: 'vcard' as const }]) {
      expect(steadyDecision(link(overrides))).toEqual(decideLink(link(overrides), facts, { passwordAccepted: true }).decision);
    }
  });
});
