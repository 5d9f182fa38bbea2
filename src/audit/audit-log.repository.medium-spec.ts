import type { AccountId } from '../common/ids/account-id';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import { AuditLogRepository } from './audit-log.repository';

const DAY_MS = 86_400_000;

describe('AuditLogRepository (medium)', () => {
  const db = useMediumDatabase();
  let entries: AuditLogRepository;
  let rows: RowFactory;
  let owner: AccountId;
  let stranger: AccountId;

  beforeAll(() => {
    entries = new AuditLogRepository(db.database);
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    await db.tables.deleteFrom('audit_log').execute();
    owner = await rows.account();
    stranger = await rows.account();
  });

  const remainingSeqs = async () => (await db.tables.selectFrom('audit_log').select('seq').orderBy('seq').execute()).map((row) => BigInt(row.seq));
  const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

  it('pages an account’s entries newest first, filtered, and never another account’s', async () => {
    const first = await rows.auditEntry(owner, { action: 'qrcode.create' });
    const second = await rows.auditEntry(owner, { action: 'qrcode.update' });
    await rows.auditEntry(stranger, { action: 'qrcode.update' });
    const third = await rows.auditEntry(owner, { action: 'qrcode.update' });
    expect((await entries.page(owner, {}, 10)).map((entry) => entry.id)).toEqual([third.id, second.id, first.id]);
    expect((await entries.page(owner, { action: 'qrcode.update' }, 10)).map((entry) => entry.id)).toEqual([third.id, second.id]);
    expect((await entries.page(owner, { beforeSeq: BigInt(third.seq) }, 1)).map((entry) => entry.id)).toEqual([second.id]);
  });

  it('finds the first entry at or after a cutoff by number, across accounts', async () => {
    await rows.auditEntry(owner, { created_at: daysAgo(400) });
    await rows.auditEntry(stranger, { created_at: daysAgo(380) });
    const firstKept = await rows.auditEntry(stranger, { created_at: daysAgo(300) });
    await rows.auditEntry(owner, { created_at: daysAgo(1) });
    expect(await entries.firstSeqFrom(daysAgo(365))).toBe(BigInt(firstKept.seq));
    expect(await entries.firstSeqFrom(new Date(Date.now() + DAY_MS))).toBeNull();
  });

  it('deletes the oldest entries below a number in bounded batches, and nothing at or above it', async () => {
    const old = [];
    for (let i = 0; i < 5; i++) old.push(await rows.auditEntry(i % 2 ? owner : stranger, { created_at: daysAgo(400 - i) }));
    const kept = [await rows.auditEntry(owner, { created_at: daysAgo(10) }), await rows.auditEntry(stranger)];
    const from = await entries.firstSeqFrom(daysAgo(365));
    expect(from).toBe(BigInt(kept[0].seq));
    expect(await entries.deleteOldest(from, 2)).toBe(2);
    expect(await remainingSeqs()).toEqual([...old.slice(2), ...kept].map((entry) => BigInt(entry.seq)));
    expect(await entries.deleteOldest(from, 10)).toBe(3);
    expect(await entries.deleteOldest(from, 10)).toBe(0);
    expect(await remainingSeqs()).toEqual(kept.map((entry) => BigInt(entry.seq)));
  });

  it('deletes any entry when none is recent (no number to keep from)', async () => {
    await rows.auditEntry(owner, { created_at: daysAgo(400) });
    await rows.auditEntry(stranger, { created_at: daysAgo(399) });
    expect(await entries.deleteOldest(null, 10)).toBe(2);
    expect(await remainingSeqs()).toEqual([]);
  });
});
