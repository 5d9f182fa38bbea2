import { randomUUID } from 'node:crypto';
import type { AccountId } from '../common/ids/account-id';
import type { FolderId, QrCodeId } from '../common/ids/resource-ids';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import type { ListFilter } from './qr-codes.repository';
import { QrCodesRepository } from './qr-codes.repository';
import { TagsRepository } from '../tags/tags.repository';
import { TagsService } from '../tags/tags.service';
import { NO_STORED_LINK_FIELDS, type StoredNewQrCode } from './qr-code.record';

const NO_SUCH_CODE = '00000000-0000-4000-8000-000000000000' as QrCodeId;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

const newCode = (overrides: Partial<StoredNewQrCode> = {}): StoredNewQrCode => ({
  ...NO_STORED_LINK_FIELDS,
  name: 'New code',
  type: 'url',
  content: { url: 'https://example.com/new' },
  contentString: 'https://example.com/new',
  style: {},
  folderId: null,
  isDynamic: false,
  expiresAt: null,
  shortCode: null,
  tags: [],
  ...overrides,
});

describe('QrCodesRepository (medium)', () => {
  const db = useMediumDatabase();
  let codes: QrCodesRepository;
  let rows: RowFactory;
  let owner: AccountId;
  let stranger: AccountId;

  beforeAll(() => {
    codes = new QrCodesRepository(db.database, new TagsService(new TagsRepository(db.database), db.database, {} as never, {} as never));
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    owner = await rows.account();
    stranger = await rows.account();
  });

  const storedCodes = (accountId: AccountId) => db.tables.selectFrom('qr_codes').selectAll().where('account_id', '=', accountId).execute();
  const insert = (accountId: AccountId, batch: StoredNewQrCode[]) => db.database.transaction((tx) => codes.insert(tx, accountId, batch));
  const names = (records: Array<{ name: string }>) => records.map((record) => record.name);

  describe('insert', () => {
    it('stores the codes for the account, in submission order under the newest/oldest sorts', async () => {
      const inserted = await insert(owner, [
        newCode({ name: 'first' }),
        newCode({ name: 'second' }),
        newCode({ name: 'third', isDynamic: true, shortCode: 'abc1234' }),
      ]);
      expect(names(inserted)).toEqual(['first', 'second', 'third']);
      expect(inserted[2]).toMatchObject({ isDynamic: true, shortCode: 'abc1234', status: 'active', scans: 0n, renderVersion: 1 });
      expect((await storedCodes(owner)).every((row) => row.account_id === owner)).toBe(true);
      expect(names(await codes.page(owner, {}, 'oldest', 1, 10))).toEqual(['first', 'second', 'third']);
      expect(names(await codes.page(owner, {}, 'newest', 1, 10))).toEqual(['third', 'second', 'first']);
    });

    it('stores all of a batch or nothing: a taken short code fails the whole insert', async () => {
      await rows.dynamicCode(stranger, { short_code: 'taken77' });
      await expect(insert(owner, [newCode({ name: 'fine' }), newCode({ isDynamic: true, shortCode: 'taken77' })])).rejects.toThrow(
        /unique|short_code/i,
      );
      expect(await storedCodes(owner)).toEqual([]);
      expect(await codes.count(owner, {})).toBe(0);
    });

    it('refuses a folder of another account (the database checks the folder’s account), storing nothing', async () => {
      const theirs = await rows.folder(stranger);
      await expect(insert(owner, [newCode({ folderId: theirs.id })])).rejects.toThrow(/foreign key/i);
      expect(await storedCodes(owner)).toEqual([]);
    });

    it('leaves nothing when the transaction it ran in fails later', async () => {
      await expect(
        db.database.transaction(async (tx) => {
          await codes.insert(tx, owner, [newCode()]);
          throw new Error('a later step failed');
        }),
      ).rejects.toThrow('a later step failed');
      expect(await storedCodes(owner)).toEqual([]);
      expect(await codes.count(owner, {})).toBe(0);
    });
  });

  describe('ownership', () => {
    it('finds the account’s code, and another account’s code not at all', async () => {
      const code = await rows.code(owner);
      expect((await codes.find(owner, code.id))?.id).toBe(code.id);
      expect(await codes.find(stranger, code.id)).toBeNull();
      expect(await codes.find(owner, NO_SUCH_CODE)).toBeNull();
    });

    it('lists and counts only the account’s codes', async () => {
      await rows.code(owner, { name: 'mine' });
      await rows.code(stranger, { name: 'theirs' });
      expect(names(await codes.page(owner, {}, 'newest', 1, 50))).toEqual(['mine']);
      expect(await codes.count(owner, {})).toBe(1);
      expect(await codes.count(owner, { search: 'theirs' })).toBe(0);
    });

    it('does not update another account’s code, and leaves it as it was', async () => {
      const code = await rows.code(owner, { name: 'Kept' });
      const result = await db.database.transaction((tx) => codes.update(tx, stranger, code.id, { name: 'Taken', bumpRenderVersion: true }));
      expect(result).toBeUndefined();
      const [row] = await storedCodes(owner);
      expect(row).toMatchObject({ name: 'Kept', render_version: 1 });
    });

    it('does not delete another account’s code', async () => {
      const code = await rows.code(owner);
      expect(await db.database.transaction((tx) => codes.delete(tx, stranger, code.id))).toBeUndefined();
      expect(await storedCodes(owner)).toHaveLength(1);
    });

    it('says which ids are the account’s codes, and findPage leaves the others out', async () => {
      const mine = await rows.code(owner, { name: 'b' });
      const mineToo = await rows.code(owner, { name: 'a' });
      const theirs = await rows.code(stranger);
      expect(await codes.ownedAmong(owner, [mine.id, theirs.id, NO_SUCH_CODE])).toEqual(new Set([mine.id]));
      expect(names(await codes.findPage(owner, [theirs.id, mine.id, mineToo.id], 'name-asc'))).toEqual(['a', 'b']);
      expect(await codes.findPage(owner, [], 'newest')).toEqual([]);
    });
  });

  describe('list', () => {
    it('sorts by each sort, ties broken by id', async () => {
      await rows.code(owner, { name: 'banana', created_at: at(2) });
      await rows.code(owner, { name: 'apple', created_at: at(3) });
      await rows.code(owner, { name: 'cherry', created_at: at(1) });
      expect(names(await codes.page(owner, {}, 'newest', 1, 10))).toEqual(['apple', 'banana', 'cherry']);
      expect(names(await codes.page(owner, {}, 'oldest', 1, 10))).toEqual(['cherry', 'banana', 'apple']);
      expect(names(await codes.page(owner, {}, 'name-asc', 1, 10))).toEqual(['apple', 'banana', 'cherry']);
      expect(names(await codes.page(owner, {}, 'name-desc', 1, 10))).toEqual(['cherry', 'banana', 'apple']);
    });

    it('pages without overlap or gap, even among equal sort keys; pageIds agrees with page', async () => {
      for (let i = 0; i < 7; i++) await rows.code(owner, { name: 'same', created_at: at(0) });
      const seen: QrCodeId[] = [];
      for (let page = 1; page <= 3; page++) {
        const listed = await codes.page(owner, {}, 'newest', page, 3);
        expect(listed.map((code) => code.id)).toEqual(await codes.pageIds(owner, {}, 'newest', page, 3));
        seen.push(...listed.map((code) => code.id));
      }
      expect(seen).toHaveLength(7);
      expect(new Set(seen).size).toBe(7);
      expect(await codes.page(owner, {}, 'newest', 4, 3)).toEqual([]);
    });

    it('filters by type, dynamic state and folder, and counts the same', async () => {
      const folder = await rows.folder(owner);
      await rows.code(owner, { name: 'static url' });
      await rows.dynamicCode(owner, { name: 'dynamic url', folder_id: folder.id });
      await rows.code(owner, { name: 'text', type: 'text', content: { text: 'hi' }, content_string: 'hi', folder_id: folder.id });
      const filters: Array<[ListFilter, string[]]> = [
        [{ type: 'url' }, ['dynamic url', 'static url']],
        [{ type: 'text' }, ['text']],
        [{ isDynamic: true }, ['dynamic url']],
        [{ isDynamic: false }, ['static url', 'text']],
        [{ folderId: folder.id }, ['dynamic url', 'text']],
        [{ folderId: folder.id, type: 'url' }, ['dynamic url']],
        [{ folderId: randomUUID() as FolderId }, []],
      ];
      for (const [filter, expected] of filters) {
        expect({ filter, names: names(await codes.page(owner, filter, 'name-asc', 1, 10)) }).toEqual({ filter, names: expected });
        expect({ filter, count: await codes.count(owner, filter) }).toEqual({ filter, count: expected.length });
      }
    });

    it('searches name and content case-insensitively, with % and _ matching themselves', async () => {
      await rows.code(owner, { name: 'Spring Menu' });
      await rows.code(owner, { name: 'Other', content: { url: 'https://example.com/SPRING' } });
      await rows.code(owner, { name: '100% off' });
      await rows.code(owner, { name: '100 percent off' });
      await rows.code(owner, { name: 'snake_case' });
      await rows.code(owner, { name: 'snakeXcase' });
      expect(names(await codes.page(owner, { search: 'spring' }, 'name-asc', 1, 10))).toEqual(['Other', 'Spring Menu']);
      expect(names(await codes.page(owner, { search: '0%' }, 'name-asc', 1, 10))).toEqual(['100% off']);
      expect(names(await codes.page(owner, { search: 'e_c' }, 'name-asc', 1, 10))).toEqual(['snake_case']);
      expect(await codes.count(owner, { search: 'SPRING' })).toBe(2);
    });

    it('filters by status as the API shows it: expired once expires_at has passed, whatever is stored', async () => {
      const now = at(100);
      await rows.dynamicCode(owner, { name: 'active' });
      await rows.dynamicCode(owner, { name: 'active until later', expires_at: at(200) });
      await rows.dynamicCode(owner, { name: 'paused', status: 'paused' });
      await rows.dynamicCode(owner, { name: 'expired', expires_at: at(50) });
      await rows.dynamicCode(owner, { name: 'paused and expired', status: 'paused', expires_at: now });
      const byStatus = async (is: 'active' | 'paused' | 'expired') => names(await codes.page(owner, { status: { is, now } }, 'name-asc', 1, 10));
      expect(await byStatus('active')).toEqual(['active', 'active until later']);
      expect(await byStatus('paused')).toEqual(['paused']);
      expect(await byStatus('expired')).toEqual(['expired', 'paused and expired']);
      expect(await codes.count(owner, { status: { is: 'expired', now } })).toBe(2);
    });

    it('keeps the counted totals right through moves between folders and deletes', async () => {
      const folder = await rows.folder(owner);
      const a = await rows.code(owner);
      await rows.code(owner);
      await db.database.transaction((tx) => codes.update(tx, owner, a.id, { folderId: folder.id, bumpRenderVersion: false }));
      expect(await codes.count(owner, { folderId: folder.id })).toBe(1);
      expect(await codes.count(owner, {})).toBe(2);
      await db.database.transaction((tx) => codes.delete(tx, owner, a.id));
      expect(await codes.count(owner, { folderId: folder.id })).toBe(0);
      expect(await codes.count(owner, {})).toBe(1);
    });
  });

  describe('update and delete', () => {
    it('applies the changes, bumps the render version when asked, and returns the new row', async () => {
      const code = await rows.code(owner, { name: 'Before', updated_at: at(0) });
      const updated = await db.database.transaction((tx) =>
        codes.update(tx, owner, code.id, { name: 'After', status: 'paused', style: { fg: '#000000' }, bumpRenderVersion: true }),
      );
      expect(updated).toMatchObject({ name: 'After', status: 'paused', style: { fg: '#000000' }, renderVersion: 2 });
      expect(updated!.updatedAt.getTime()).toBeGreaterThan(at(0).getTime());
      const plain = await db.database.transaction((tx) => codes.update(tx, owner, code.id, { name: 'Again', bumpRenderVersion: false }));
      expect(plain).toMatchObject({ name: 'Again', renderVersion: 2 });
    });

    it('upgrades to dynamic with the given short code, but keeps one the code already has', async () => {
      const plain = await rows.code(owner);
      const upgraded = await db.database.transaction((tx) =>
        codes.update(tx, owner, plain.id, { upgradeWithShortCode: 'fresh01', bumpRenderVersion: true }),
      );
      expect(upgraded).toMatchObject({ isDynamic: true, shortCode: 'fresh01' });
      const again = await db.database.transaction((tx) =>
        codes.update(tx, owner, plain.id, { upgradeWithShortCode: 'other02', bumpRenderVersion: false }),
      );
      expect(again?.shortCode).toBe('fresh01');
    });

    it('refuses a move into another account’s folder and leaves the code where it was', async () => {
      const mine = await rows.folder(owner);
      const theirs = await rows.folder(stranger);
      const code = await rows.code(owner, { folder_id: mine.id });
      await expect(
        db.database.transaction((tx) => codes.update(tx, owner, code.id, { folderId: theirs.id, bumpRenderVersion: false })),
      ).rejects.toThrow(/foreign key/i);
      expect((await codes.find(owner, code.id))?.folderId).toBe(mine.id);
    });

    it('deletes the code and its scan events, returning it as it was', async () => {
      const code = await rows.dynamicCode(owner, { name: 'Gone' });
      await db.tables
        .insertInto('scan_events')
        .values({ event_id: randomUUID(), qr_code_id: code.id, device: 'mobile', os: 'iOS', browser: 'Safari', visitor_hash: 'a'.repeat(32) })
        .execute();
      const deleted = await db.database.transaction((tx) => codes.delete(tx, owner, code.id));
      expect(deleted).toMatchObject({ id: code.id, name: 'Gone' });
      expect(await codes.find(owner, code.id)).toBeNull();
      expect(await db.tables.selectFrom('scan_events').select('event_id').where('qr_code_id', '=', code.id).execute()).toEqual([]);
    });
  });
});
