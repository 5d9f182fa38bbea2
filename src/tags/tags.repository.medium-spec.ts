import type { AccountId } from '../common/ids/account-id';
import type { ApiKeyId, FolderId, TagId } from '../common/ids/resource-ids';
import { runInRequestContext } from '../infra/http/request-context';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import { TagsRepository } from './tags.repository';

describe('TagsRepository (medium)', () => {
  const db = useMediumDatabase();
  let tags: TagsRepository;
  let rows: RowFactory;
  let owner: AccountId;
  let stranger: AccountId;

  beforeAll(() => {
    tags = new TagsRepository(db.database);
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    owner = await rows.account();
    stranger = await rows.account();
  });

  const resolve = (accountId: AccountId, names: string[]) => db.database.transaction((tx) => tags.resolve(tx, accountId, names));
  const tagIdsOf = async (id: string) =>
    (
      await db.tables
        .selectFrom('qr_codes')
        .select('tag_ids')
        .where('id', '=', id as never)
        .executeTakeFirstOrThrow()
    ).tag_ids;
  const asKeyOf = <T>(accountId: AccountId, folderIds: FolderId[], work: () => Promise<T>) =>
    runInRequestContext(
      { requestId: 'r', principal: { keyId: 'k' as ApiKeyId, keyPrefix: 'qr_live_k', accountId, scopes: ['*'], folderIds, expiresAt: null } },
      work,
    );

  it('resolves names to ids, making the tags missing, one tag per name in any case', async () => {
    const first = await resolve(owner, ['Spring', 'store-12']);
    const again = await resolve(owner, ['SPRING', 'summer']);
    expect(again.get('spring')).toEqual(first.get('spring'));
    expect(again.get('spring')?.name).toBe('Spring');
    const stored = await db.tables.selectFrom('tags').select('name').where('account_id', '=', owner).orderBy('name').execute();
    expect(stored.map((row) => row.name)).toEqual(['Spring', 'store-12', 'summer']);
    // Another account's tag of the same name is its own.
    expect((await resolve(stranger, ['spring'])).get('spring')?.id).not.toBe(first.get('spring')?.id);
  });

  it('counts the codes per tag from the triggers, and a restricted key only its folders', async () => {
    const folder = await rows.folder(owner);
    const ids = await resolve(owner, ['a', 'b', 'c']);
    const [a, b] = [ids.get('a')!.id, ids.get('b')!.id];
    await rows.code(owner, { tag_ids: [a, b] });
    await rows.code(owner, { tag_ids: [a], folder_id: folder.id });
    expect((await tags.list(owner)).map((tag) => [tag.name, tag.codes])).toEqual([
      ['a', 2],
      ['b', 1],
      ['c', 0],
    ]);
    const restricted = await asKeyOf(owner, [folder.id], () => tags.list(owner));
    expect(restricted.map((tag) => [tag.name, tag.codes])).toEqual([['a', 1]]);
    expect(await tags.list(stranger)).toEqual([]);
  });

  it('merges one tag into another on every code (a code with both keeps one), and detaches a tag', async () => {
    const ids = await resolve(owner, ['old', 'new', 'other']);
    const [oldId, newId, otherId] = ['old', 'new', 'other'].map((name) => ids.get(name)!.id);
    const withOld = await rows.code(owner, { tag_ids: [oldId, otherId] });
    const withBoth = await rows.code(owner, { tag_ids: [newId, oldId] });
    const strangers = await rows.code(stranger, { tag_ids: [] });
    const merged = await db.database.transaction((tx) => tags.mergeCodes(tx, owner, oldId, newId));
    expect(merged).toBe(2);
    expect(await tagIdsOf(withOld.id)).toEqual([newId, otherId]);
    expect(await tagIdsOf(withBoth.id)).toEqual([newId]);
    expect(await tagIdsOf(strangers.id)).toEqual([]);
    expect(await db.database.transaction((tx) => tags.detach(tx, owner, otherId))).toBe(1);
    expect(await tagIdsOf(withOld.id)).toEqual([newId]);
    expect(await tags.count(owner, newId)).toBe(2);
    expect(await tags.count(owner, oldId)).toBe(0);
  });

  it('finds a tag by name in any case, only the account’s, and refuses a second tag of one name', async () => {
    await resolve(owner, ['Menus']);
    expect((await tags.findByName(owner, 'MENUS'))?.name).toBe('Menus');
    expect(await tags.findByName(stranger, 'menus')).toBeNull();
    expect(await db.database.transaction((tx) => tags.insert(tx, owner, 'menus'))).toBeNull();
    expect((await db.database.transaction((tx) => tags.insert(tx, owner, 'Drinks')))?.name).toBe('Drinks');
    const missing = '00000000-0000-4000-8000-000000000000' as TagId;
    expect(await tags.count(owner, missing)).toBe(0);
  });
});
