import { NotFoundException } from '@nestjs/common';
import { ScanAnalyticsService } from '../src/analytics/scan-analytics.service';
import { asAccountId } from '../src/common/ids/account-id';
import type { FolderId, QrCodeId } from '../src/common/ids/resource-ids';
import { ValidationFailedException } from '../src/common/validation/validation-failed.exception';
import { FoldersService } from '../src/folders/folders.service';
import { ImagesService } from '../src/images/images.service';
import { Database } from '../src/infra/database/database.service';
import { isForeignKeyViolation } from '../src/infra/database/refused-data';
import type { CreateQrCodeDto } from '../src/qrcodes/dto/create-qr-code.dto';
import { NO_STORED_LINK_FIELDS } from '../src/qrcodes/qr-code.record';
import type { ListQrCodesQuery } from '../src/qrcodes/dto/list-qr-codes.query';
import { QrCodesRepository } from '../src/qrcodes/qr-codes.repository';
import { QrCodesService } from '../src/qrcodes/qr-codes.service';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Ownership at the service level, on a migrated database: every method of every owned resource,
 * called for another account, answers "not found" (exactly as for a missing id) and changes
 * nothing; and the database itself refuses a code in another account's folder, even when no
 * service check runs.
 */
describe('ownership of owned resources (service level)', () => {
  let t: TestApp;
  let owner: ReturnType<typeof asAccountId>;
  let stranger: ReturnType<typeof asAccountId>;
  let codeId: QrCodeId;
  let folderId: FolderId;

  const codes = () => t.app.get(QrCodesService);
  const folders = () => t.app.get(FoldersService);
  const newCode = (overrides: Partial<CreateQrCodeDto> = {}): CreateQrCodeDto => ({
    type: 'url',
    content: { url: 'https://example.com/x' },
    ...overrides,
  });

  beforeAll(async () => {
    t = await startTestApp();
    owner = asAccountId((await t.newAccount()).accountId);
    stranger = asAccountId((await t.newAccount()).accountId);
    folderId = (await folders().create(owner, 'Private')).id as FolderId;
    codeId = (await codes().create(owner, newCode({ is_dynamic: true, folder_id: folderId, name: 'Mine' }))).id;
  });
  afterAll(() => t.close());

  /** The owner's code and folder as stored, to prove a stranger's call changed nothing. */
  const ownersRows = async () => ({
    code: await t.prisma.qrCode.findUniqueOrThrow({ where: { id: codeId } }),
    folder: await t.prisma.folder.findUniqueOrThrow({ where: { id: folderId } }),
  });

  const strangerCalls: Array<[string, () => Promise<unknown>]> = [
    ['QrCodesService.get', () => codes().get(stranger, codeId)],
    ['QrCodesService.findOwned', () => codes().findOwned(stranger, codeId)],
    ['QrCodesService.update', () => codes().update(stranger, codeId, { name: 'Hijacked' })],
    ['QrCodesService.update (upgrade)', () => codes().update(stranger, codeId, { is_dynamic: true })],
    ['QrCodesService.delete', () => codes().delete(stranger, codeId)],
    ['ImagesService.image', () => t.app.get(ImagesService).image(stranger, codeId, 300)],
    [
      'ScanAnalyticsService.scans',
      () => t.app.get(ScanAnalyticsService).scans(stranger, codeId, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' } as never),
    ],
    ['FoldersService.get', () => folders().get(stranger, folderId)],
    ['FoldersService.rename', () => folders().rename(stranger, folderId, 'Hijacked')],
    ['FoldersService.delete', () => folders().delete(stranger, folderId)],
  ];

  it.each(strangerCalls)('%s for another account is "not found", like a missing id, and changes nothing', async (_method, call) => {
    const before = await ownersRows();
    const error = await call().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(NotFoundException);
    expect(await ownersRows()).toEqual(before);
  });

  it('lists nothing of another account: codes, folders, and the folder filter', async () => {
    const query = { page: 1, limit: 100, sort: 'newest' } as ListQrCodesQuery;
    expect((await codes().list(stranger, query)).data).toEqual([]);
    expect((await codes().list(stranger, { ...query, folder_id: folderId })).data).toEqual([]);
    expect(await folders().list(stranger)).toEqual([]);
    expect([...(await folders().ownedAmong(stranger, [folderId]))]).toEqual([]);
  });

  it("refuses to place a code in another account's folder (create, bulk check, update)", async () => {
    await expect(codes().create(stranger, newCode({ folder_id: folderId }))).rejects.toBeInstanceOf(ValidationFailedException);
    const [check] = await codes().checkNew(stranger, [newCode({ folder_id: folderId })]);
    expect(check).toEqual({ ok: false, errors: [{ field: 'folder_id', message: expect.stringMatching(/one of your folders/) }] });
    const theirs = await codes().create(stranger, newCode());
    await expect(codes().update(stranger, theirs.id, { folder_id: folderId })).rejects.toBeInstanceOf(ValidationFailedException);
    expect((await t.prisma.qrCode.findUniqueOrThrow({ where: { id: theirs.id } })).folderId).toBeNull();
  });

  it("the database refuses a code in another account's folder even when no service check runs", async () => {
    const repository = t.app.get(QrCodesRepository);
    const database = t.app.get(Database);
    const attempt = database.transaction((tx) =>
      repository.insert(tx, stranger, [
        {
          ...NO_STORED_LINK_FIELDS,
          name: 'Sneaky',
          tags: [],
          type: 'url',
          content: { url: 'https://example.com/' },
          contentString: 'https://example.com/',
          style: {},
          folderId,
          isDynamic: false,
          expiresAt: null,
          shortCode: null,
        },
      ]),
    );
    const error = await attempt.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(isForeignKeyViolation(error)).toBe(true);
    const theirs = await codes().create(stranger, newCode());
    const move = database.transaction((tx) => repository.update(tx, stranger, theirs.id, { folderId, bumpRenderVersion: false }));
    expect(
      isForeignKeyViolation(
        await move.then(
          () => undefined,
          (thrown: unknown) => thrown,
        ),
      ),
    ).toBe(true);
    expect(await t.prisma.qrCode.count({ where: { accountId: stranger, folderId } })).toBe(0);
  });

  it('the owner still reaches everything (the checks above are not vacuous)', async () => {
    expect((await codes().get(owner, codeId)).name).toBe('Mine');
    expect((await folders().get(owner, folderId)).qr_count).toBe(1);
    expect((await t.app.get(ImagesService).image(owner, codeId, 300)).svg).not.toBeNull();
  });
});
