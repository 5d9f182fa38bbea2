import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import { CodeHistoryRepository, type NewCodeVersions } from './code-history.repository';

const NO_SUCH_CODE = '00000000-0000-4000-8000-000000000000' as QrCodeId;
const CREATED_AT = new Date('2026-11-20T08:00:00.000Z');

/** The versions a change appends: version 1 (used only on the code's first change) and the next one. */
const change = (url: string, keyPrefix = 'qr_live_Next', restoredFrom: number | null = null): NewCodeVersions => ({
  first: {
    createdAt: CREATED_AT,
    keyPrefix: 'qr_live_Made',
    state: { content: { url: 'https://example.com/v1' }, status: 'active', expires_at: null },
  },
  next: { keyPrefix, restoredFrom, state: { content: { url }, status: 'active', expires_at: null } },
});

describe('CodeHistoryRepository (medium)', () => {
  const db = useMediumDatabase();
  let history: CodeHistoryRepository;
  let rows: RowFactory;
  let owner: AccountId;
  let stranger: AccountId;

  beforeAll(() => {
    history = new CodeHistoryRepository(db.database);
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    owner = await rows.account();
    stranger = await rows.account();
  });

  const stored = (codeId: QrCodeId) =>
    db.tables.selectFrom('qr_code_versions').selectAll().where('qr_code_id', '=', codeId).orderBy('version').execute();
  const append = (codeId: QrCodeId, versions: NewCodeVersions, accountId = owner) =>
    db.database.transaction((tx) => history.append(tx, accountId, codeId, versions));

  it("writes version 1 (the state at creation, with the code's creation time and key) with the first change, then one per change", async () => {
    const code = await rows.dynamicCode(owner);
    expect(await append(code.id, change('https://example.com/v2'))).toBe(2);
    expect(await append(code.id, change('https://example.com/v3', 'qr_live_Other', 1))).toBe(3);
    const versions = await stored(code.id);
    expect(
      versions.map(({ version, account_id, key_prefix, restored_from, state }) => ({ version, account_id, key_prefix, restored_from, state })),
    ).toEqual([
      { version: 1, account_id: owner, key_prefix: 'qr_live_Made', restored_from: null, state: change('').first.state },
      { version: 2, account_id: owner, key_prefix: 'qr_live_Next', restored_from: null, state: change('https://example.com/v2').next.state },
      { version: 3, account_id: owner, key_prefix: 'qr_live_Other', restored_from: 1, state: change('https://example.com/v3').next.state },
    ]);
    expect(versions[0].created_at).toEqual(CREATED_AT);
    expect(versions[1].created_at.getTime()).toBeGreaterThan(CREATED_AT.getTime());
  });

  it('pages newest first, with the version just before each page (what its oldest entry changed)', async () => {
    const code = await rows.dynamicCode(owner);
    for (let n = 2; n <= 6; n++) await append(code.id, change(`https://example.com/v${n}`));
    const versionsAt = async (offset: number, count: number) => (await history.newestFirst(owner, code.id, offset, count)).map((v) => v.version);
    expect(await versionsAt(0, 2)).toEqual([6, 5, 4]);
    expect(await versionsAt(2, 2)).toEqual([4, 3, 2]);
    expect(await versionsAt(4, 2)).toEqual([2, 1]);
    expect(await versionsAt(6, 2)).toEqual([]);
    expect(await history.latest(owner, code.id)).toBe(6);
    expect((await history.find(owner, code.id, 3))?.state).toEqual(change('https://example.com/v3').next.state);
  });

  it('knows no version of a code that has not changed (version 1 is the code itself), nor of a missing code', async () => {
    const code = await rows.dynamicCode(owner);
    expect(await history.newestFirst(owner, code.id, 0, 20)).toEqual([]);
    expect(await history.latest(owner, code.id)).toBeUndefined();
    expect(await history.find(owner, code.id, 1)).toBeUndefined();
    expect(await history.latest(owner, NO_SUCH_CODE)).toBeUndefined();
  });

  it("another account sees none of a code's versions", async () => {
    const code = await rows.dynamicCode(owner);
    await append(code.id, change('https://example.com/v2'));
    expect(await history.newestFirst(stranger, code.id, 0, 20)).toEqual([]);
    expect(await history.latest(stranger, code.id)).toBeUndefined();
    expect(await history.find(stranger, code.id, 2)).toBeUndefined();
    expect(await history.find(owner, code.id, 2)).toBeDefined();
  });

  it('deleting the code deletes its history (foreign key cascade)', async () => {
    const code = await rows.dynamicCode(owner);
    const kept = await rows.dynamicCode(owner);
    await append(code.id, change('https://example.com/v2'));
    await append(kept.id, change('https://example.com/v2'));
    await db.tables.deleteFrom('qr_codes').where('id', '=', code.id).execute();
    expect(await stored(code.id)).toEqual([]);
    expect(await stored(kept.id)).toHaveLength(2);
  });

  it('refuses versions of a code that does not exist, leaving nothing', async () => {
    await expect(append(NO_SUCH_CODE, change('https://example.com/v2'))).rejects.toThrow();
    expect(await stored(NO_SUCH_CODE)).toEqual([]);
  });

  it('refuses a version number taken twice (two writers without the code lock): the second transaction leaves nothing', async () => {
    const code = await rows.dynamicCode(owner);
    await append(code.id, change('https://example.com/v2'));
    await expect(
      db.database.transaction(async (tx) => {
        await tx
          .forAccount(owner)
          .insertInto('qr_code_versions', [{ qr_code_id: code.id, version: 2, state: '{}' }])
          .execute();
      }),
    ).rejects.toThrow();
    expect((await stored(code.id)).map((v) => v.version)).toEqual([1, 2]);
  });
});
