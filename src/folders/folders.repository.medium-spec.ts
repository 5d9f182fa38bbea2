import type { AccountId } from '../common/ids/account-id';
import type { FolderId } from '../common/ids/resource-ids';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import { FoldersRepository } from './folders.repository';

const NO_SUCH_FOLDER = '00000000-0000-4000-8000-000000000000' as FolderId;

describe('FoldersRepository (medium)', () => {
  const db = useMediumDatabase();
  let folders: FoldersRepository;
  let rows: RowFactory;
  let owner: AccountId;
  let stranger: AccountId;

  beforeAll(() => {
    folders = new FoldersRepository(db.database);
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    owner = await rows.account();
    stranger = await rows.account();
  });

  const storedFolder = (id: FolderId) => db.tables.selectFrom('folders').selectAll().where('id', '=', id).executeTakeFirst();

  it('creates a folder of the account, with no codes', async () => {
    const created = await folders.create(db.database.write, owner, 'Menus');
    expect(created).toMatchObject({ name: 'Menus', qrCount: 0 });
    const row = await storedFolder(created.id);
    expect(row).toMatchObject({ account_id: owner, name: 'Menus' });
  });

  it('lists only the account’s folders, by name then id', async () => {
    await rows.folder(owner, { name: 'b' });
    await rows.folder(owner, { name: 'a' });
    await rows.folder(owner, { name: 'c' });
    await rows.folder(stranger, { name: 'aa' });
    expect((await folders.list(owner)).map((folder) => folder.name)).toEqual(['a', 'b', 'c']);
    expect((await folders.list(stranger)).map((folder) => folder.name)).toEqual(['aa']);
  });

  it('breaks ties between equal names by id', async () => {
    const made = [await rows.folder(owner, { name: 'same' }), await rows.folder(owner, { name: 'same' }), await rows.folder(owner, { name: 'same' })];
    const ids = made.map((folder) => folder.id).sort();
    expect((await folders.list(owner)).map((folder) => folder.id)).toEqual(ids);
  });

  it('counts each folder’s codes', async () => {
    const full = await rows.folder(owner, { name: 'full' });
    const empty = await rows.folder(owner, { name: 'empty' });
    await rows.code(owner, { folder_id: full.id });
    await rows.code(owner, { folder_id: full.id });
    await rows.code(owner);
    const listed = await folders.list(owner);
    expect(listed.map(({ name, qrCount }) => ({ name, qrCount }))).toEqual([
      { name: 'empty', qrCount: 0 },
      { name: 'full', qrCount: 2 },
    ]);
    expect((await folders.find(owner, empty.id))?.qrCount).toBe(0);
    expect((await folders.find(owner, full.id))?.qrCount).toBe(2);
  });

  it('finds the account’s folder, and not another account’s', async () => {
    const folder = await rows.folder(owner, { name: 'Mine' });
    expect(await folders.find(owner, folder.id)).toMatchObject({ id: folder.id, name: 'Mine' });
    expect(await folders.find(stranger, folder.id)).toBeNull();
    expect(await folders.find(owner, NO_SUCH_FOLDER)).toBeNull();
  });

  it('says which ids are the account’s folders', async () => {
    const mine = await rows.folder(owner);
    const theirs = await rows.folder(stranger);
    expect(await folders.ownedAmong(owner, [mine.id, theirs.id, NO_SUCH_FOLDER])).toEqual(new Set([mine.id]));
    expect(await folders.ownedAmong(owner, [])).toEqual(new Set());
  });

  it('renames the account’s folder and moves its updated_at', async () => {
    const folder = await rows.folder(owner, { name: 'Old', updated_at: new Date('2020-01-01T00:00:00Z') });
    expect(await folders.rename(db.database.write, owner, folder.id, 'New')).toEqual({ before: 'Old' });
    const renamed = await folders.find(owner, folder.id);
    expect(renamed).toMatchObject({ id: folder.id, name: 'New' });
    expect(renamed!.updatedAt.getTime()).toBeGreaterThan(new Date('2020-01-01T00:00:00Z').getTime());
  });

  it('does not rename another account’s folder', async () => {
    const folder = await rows.folder(owner, { name: 'Kept' });
    expect(await folders.rename(db.database.write, stranger, folder.id, 'Taken')).toBeNull();
    expect((await storedFolder(folder.id))?.name).toBe('Kept');
  });

  it('does not delete another account’s folder', async () => {
    const folder = await rows.folder(owner);
    expect(await folders.delete(db.database.write, stranger, folder.id)).toBeNull();
    expect(await storedFolder(folder.id)).toBeDefined();
  });

  it('deletes the folder and keeps its codes, moved out of it', async () => {
    const folder = await rows.folder(owner);
    const code = await rows.code(owner, { folder_id: folder.id });
    expect(await folders.delete(db.database.write, owner, folder.id)).toEqual({ name: folder.name });
    expect(await storedFolder(folder.id)).toBeUndefined();
    const kept = await db.tables.selectFrom('qr_codes').select(['account_id', 'folder_id']).where('id', '=', code.id).executeTakeFirst();
    expect(kept).toEqual({ account_id: owner, folder_id: null });
    expect(await folders.delete(db.database.write, owner, folder.id)).toBeNull();
  });

  it('refuses a name longer than the column (100), storing nothing', async () => {
    await expect(folders.create(db.database.write, owner, 'x'.repeat(101))).rejects.toThrow();
    expect(await folders.list(owner)).toEqual([]);
  });

  it('does not count another account’s codes, even one pointing at the folder’s id', async () => {
    const folder = await rows.folder(owner);
    await rows.code(owner, { folder_id: folder.id });
    // The database refuses the cross-account reference outright (the folder key includes the account).
    await expect(rows.code(stranger, { folder_id: folder.id })).rejects.toThrow(/foreign key/i);
    expect((await folders.find(owner, folder.id))?.qrCount).toBe(1);
  });

  it('deleting an account takes its folders with it', async () => {
    await rows.folder(owner);
    await db.tables.deleteFrom('accounts').where('id', '=', owner).execute();
    expect(await folders.list(owner)).toEqual([]);
  });
});
