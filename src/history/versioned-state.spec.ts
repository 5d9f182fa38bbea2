import type { QrCodeId } from '../common/ids/resource-ids';
import type { QrCodeRecord } from '../qrcodes/qr-code.record';
import {
  changedFields,
  restoringUpdate,
  SECRET_CHANGED,
  shownFields,
  storedState,
  type VersionedField,
  versionedState,
  VERSIONED_FIELDS,
} from './versioned-state';

const code = (overrides: Partial<QrCodeRecord> = {}): QrCodeRecord => ({
  id: '3f2b8c4e-1d5a-4e7b-9c0f-6a8d2e4b1c37' as QrCodeId,
  name: 'Spring poster',
  type: 'url',
  content: { url: 'https://example.com/spring' },
  contentString: 'https://example.com/spring',
  tags: [],
  style: {},
  folderId: null,
  isDynamic: true,
  shortCode: 'aZ3kP9qL',
  status: 'active',
  expiresAt: null,
  scans: 0n,
  renderVersion: 1,
  createdAt: new Date('2026-11-26T10:00:00.000Z'),
  updatedAt: new Date('2026-11-26T10:00:00.000Z'),
  createdKeyPrefix: 'qr_live_AbCd',
  domainId: null,
  domainHostname: null,
  rules: [],
  maxScans: null,
  fallbackUrl: null,
  passwordHash: null,
  utm: null,
  scanRetentionDays: null,
  preview: null,
  ...overrides,
});

/** The list as the lead will extend it: a write-only field kept as its hash, and one versioned later. */
const CORE = VERSIONED_FIELDS.filter((field) => ['content', 'status', 'expires_at'].includes(field.name));
const WITH_SECRET: readonly VersionedField[] = [
  ...CORE,
  { name: 'password', read: () => null, secret: true, restore: (hash) => ({ password_hash: hash }) },
  { name: 'rules', read: () => [], absent: [] },
];

describe('versionedState', () => {
  it('keeps what scans get (content, status, expiry, rules, link controls) by their API names, nothing else', () => {
    const rules = [{ conditions: { country: ['DE'] }, target: 'https://example.com/de' }];
    expect(
      versionedState(
        code({
          expiresAt: new Date('2099-01-01T00:00:00.000Z'),
          name: 'renamed',
          style: { a: 1 },
          rules,
          maxScans: 100,
          fallbackUrl: 'https://example.com/sold-out',
          passwordHash: '$argon2id$v=19$hash',
          utm: { source: 'qr' },
        }),
      ),
    ).toEqual({
      content: { url: 'https://example.com/spring' },
      status: 'active',
      expires_at: '2099-01-01T00:00:00.000Z',
      rules,
      max_scans: 100,
      fallback_url: 'https://example.com/sold-out',
      utm: { source: 'qr' },
      password: '$argon2id$v=19$hash',
    });
  });
});

describe('storedState', () => {
  it.each([
    ['a field stored', { content: { url: 'u' }, status: 'paused', expires_at: null, rules: [{ target: 'x' }] }, [{ target: 'x' }]],
    ['a field versioned after the state was stored takes its absent value', { content: { url: 'u' }, status: 'paused', expires_at: null }, []],
  ])('%s', (_, stored, rules) => {
    expect(storedState(stored, WITH_SECRET)).toEqual({ content: { url: 'u' }, status: 'paused', expires_at: null, password: null, rules });
  });

  it('a missing field without an absent value is null', () => {
    expect(storedState({ content: { url: 'u' } }, CORE)).toEqual({ content: { url: 'u' }, status: null, expires_at: null });
    expect(storedState({ content: { url: 'u' } })).toMatchObject({ rules: [], max_scans: null, password: null });
  });
});

describe('changedFields', () => {
  const base = { content: { url: 'https://a.example', title: 'A' }, status: 'active', expires_at: null };
  it.each([
    ['nothing', base, []],
    ['the same object with its keys in another order', { ...base, content: { title: 'A', url: 'https://a.example' } }, []],
    ['a nested value', { ...base, content: { url: 'https://b.example', title: 'A' } }, ['content']],
    ['status and expiry', { ...base, status: 'paused', expires_at: '2099-01-01T00:00:00.000Z' }, ['status', 'expires_at']],
    ['null against a value', { ...base, expires_at: '2099-01-01T00:00:00.000Z' }, ['expires_at']],
  ])('%s', (_, to, changed) => {
    expect(changedFields(base, to)).toEqual(changed);
  });
});

describe('shownFields', () => {
  const state = { content: { url: 'u' }, status: 'active', expires_at: null, password: '$argon2id$v=19$hash', rules: [] };
  it.each([
    ['only the names asked for', ['status'], { status: 'active' }],
    ['a set secret as "changed", never its value', ['password', 'content'], { password: SECRET_CHANGED, content: { url: 'u' } }],
  ])('%s', (_, names, shown) => {
    expect(shownFields(state, names, WITH_SECRET)).toEqual(shown);
  });

  it('an unset secret as null (a removed password shows as changed → null)', () => {
    expect(shownFields({ ...state, password: null }, ['password'], WITH_SECRET)).toEqual({ password: null });
  });
});

describe('restoringUpdate', () => {
  const current = { content: { url: 'https://now.example' }, status: 'paused', expires_at: '2020-01-01T00:00:00.000Z' };
  it.each([
    ['the same state: nothing to send', current, {}],
    [
      'only the fields that differ (an unchanged past expiry is not sent again)',
      { ...current, content: { url: 'https://then.example' }, status: 'active' },
      { content: { url: 'https://then.example' }, status: 'active' },
    ],
    ['a removed expiry is sent as null', { ...current, expires_at: null }, { expires_at: null }],
  ])('%s', (_, target, update) => {
    expect(restoringUpdate(current, target)).toEqual(update);
  });

  it("a field's own restore says how its stored value goes back (a password by its hash)", () => {
    const withSecret = { ...current, password: null, rules: [] };
    expect(restoringUpdate(withSecret, { ...withSecret, password: '$argon2id$old' }, WITH_SECRET)).toEqual({ password_hash: '$argon2id$old' });
  });
});
