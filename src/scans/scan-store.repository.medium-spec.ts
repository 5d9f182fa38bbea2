import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { recordedScan } from '../../test/support/factories';
import { useMediumDatabase } from '../../test/support/medium';
import { RowFactory } from '../../test/support/row-factories';
import { decodeStagedBatch, encodeStagedBatch, ScanBatchWriter } from './scan-batch';
import type { ScanEvent } from './scan-event';
import { ScanStoreRepository } from './scan-store.repository';
import { type StoredScans, StoredScanListeners } from './stored-scans';
import { dailyVisitorKey, visitorHash, VisitorHasher } from './visitor-hash';

const SECRET = 'medium-spec-visitor-secret';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';

describe('ScanStoreRepository (medium)', () => {
  const db = useMediumDatabase();
  let store: ScanStoreRepository;
  let rows: RowFactory;
  let writer: ScanBatchWriter;
  let account: AccountId;

  beforeAll(() => {
    store = new ScanStoreRepository(db.database, new StoredScanListeners());
    rows = new RowFactory(db.tables);
    writer = new ScanBatchWriter(VisitorHasher.withSecret(SECRET));
  });

  beforeEach(async () => {
    account = await rows.account();
  });

  const batchOf = (...events: ScanEvent[]) => writer.write(events);
  const scansOf = async (id: QrCodeId) =>
    Number((await db.tables.selectFrom('qr_codes').select('scans').where('id', '=', id).executeTakeFirstOrThrow()).scans);
  const eventsOf = (id: QrCodeId) => db.tables.selectFrom('scan_events').selectAll().where('qr_code_id', '=', id).orderBy('scanned_at').execute();

  it('stores a batch’s rows and adds its scans to each code, bots stored but not counted', async () => {
    const a = await rows.dynamicCode(account);
    const b = await rows.dynamicCode(account);
    const batch = batchOf(
      recordedScan(a.id, { userAgent: IPHONE, referrer: 'https://news.example/' }),
      recordedScan(a.id, { userAgent: BOT, isBot: true }),
      recordedScan(b.id),
    );
    expect(await store.storeBatches([batch])).toBe(3);
    expect(await scansOf(a.id)).toBe(1);
    expect(await scansOf(b.id)).toBe(1);
    const stored = await eventsOf(a.id);
    expect(stored).toHaveLength(2);
    expect(stored.find((row) => !row.is_bot)).toMatchObject({ device: 'mobile', os: 'iOS', referrer: 'https://news.example/', user_agent: IPHONE });
    expect(stored.find((row) => row.is_bot)).toMatchObject({ device: 'bot', referrer: null });
  });

  it('stores the visitor hash of the scan’s day, never the IP', async () => {
    const code = await rows.dynamicCode(account);
    const scan = recordedScan(code.id, { ip: '198.51.100.23', userAgent: IPHONE });
    await store.storeBatches([batchOf(scan)]);
    const [row] = await eventsOf(code.id);
    expect(row.visitor_hash).toBe(visitorHash(dailyVisitorKey(SECRET, scan.at), scan.ip, IPHONE));
    expect(JSON.stringify(row)).not.toContain('198.51.100.23');
    expect(row.scanned_at.getTime()).toBe(scan.at);
  });

  it('keeps referrers with tabs, newlines and backslashes as they were (COPY escaping)', async () => {
    const code = await rows.dynamicCode(account);
    const referrer = 'https://x.example/a\tb\nc\\d\re';
    await store.storeBatches([batchOf(recordedScan(code.id, { referrer, userAgent: null }))]);
    const [row] = await eventsOf(code.id);
    expect(row).toMatchObject({ referrer, user_agent: null, device: 'other' });
  });

  it('stores where each scan came from (country, city, escaped), and a batch staged before scans had a place beside a new one', async () => {
    const code = await rows.dynamicCode(account);
    const placed = batchOf(
      recordedScan(code.id, { at: Date.now() - 3000, country: 'DE', city: 'Berlin' }),
      recordedScan(code.id, { at: Date.now() - 2000, country: 'JP', city: 'Tō\tkyō\\' }),
      recordedScan(code.id, { at: Date.now() - 1000, country: 'BR', city: null }),
    );
    // The first ten columns, as a version before this one staged its batches (no count of columns in the header).
    const staged = encodeStagedBatch(batchOf(recordedScan(code.id, { country: 'FR', city: 'Paris' })));
    const [header, rowText] = staged.split(/\n(.*)/s);
    const earlierHeader = JSON.stringify({ ...(JSON.parse(header) as object), columns: undefined });
    const earlierRows = `${rowText.slice(0, -1).split('\t').slice(0, 10).join('\t')}\n`;
    const earlier = decodeStagedBatch(Buffer.from(`${earlierHeader}\n${earlierRows}`));
    expect(earlier.columns).toBe(10);
    expect(await store.storeBatches([placed, earlier])).toBe(4);
    expect((await eventsOf(code.id)).map((row) => [row.country, row.city])).toEqual([
      ['DE', 'Berlin'],
      ['JP', 'Tō\tkyō\\'],
      ['BR', null],
      [null, null],
    ]);
    expect(await scansOf(code.id)).toBe(4);
  });

  it('stores a batch once however often it is stored (a replay after a crash counts nothing twice)', async () => {
    const code = await rows.dynamicCode(account);
    const batch = batchOf(recordedScan(code.id), recordedScan(code.id));
    expect(await store.storeBatches([batch])).toBe(2);
    expect(await store.storeBatches([batch])).toBe(0);
    expect(await store.storeBatches([batch, batch])).toBe(0);
    expect(await scansOf(code.id)).toBe(2);
    expect(await eventsOf(code.id)).toHaveLength(2);
  });

  it('stores a batch given twice in one call once, and sums a code’s scans over several batches', async () => {
    const code = await rows.dynamicCode(account);
    const first = batchOf(recordedScan(code.id));
    const second = batchOf(recordedScan(code.id), recordedScan(code.id));
    expect(await store.storeBatches([first, second, first])).toBe(3);
    expect(await scansOf(code.id)).toBe(3);
  });

  it('drops the rows of a code deleted before the store, and stores the others', async () => {
    const kept = await rows.dynamicCode(account);
    const gone = await rows.dynamicCode(account);
    const batch = batchOf(recordedScan(kept.id), recordedScan(gone.id), recordedScan(gone.id));
    await db.tables.deleteFrom('qr_codes').where('id', '=', gone.id).execute();
    expect(await store.storeBatches([batch])).toBe(1);
    expect(await eventsOf(gone.id)).toEqual([]);
    expect(await scansOf(kept.id)).toBe(1);
  });

  it('does nothing for no batches', async () => {
    expect(await store.storeBatches([])).toBe(0);
  });

  it('tells listeners, in its transaction, which codes it stored (with their account, folder and short code) and their rows', async () => {
    const folder = await rows.folder(account);
    const code = await rows.dynamicCode(account, { folder_id: folder.id });
    const listeners = new StoredScanListeners();
    const seen: StoredScans[] = [];
    listeners.inTransaction(async (tx, stored) => {
      seen.push(stored);
      await tx.query(`INSERT INTO service_settings (name, value) VALUES ($1, 'x')`, [`listened:${code.id}`]);
    });
    const listened = new ScanStoreRepository(db.database, listeners);
    await listened.storeBatches([batchOf(recordedScan(code.id, { referrer: 'https://r.example/' }))]);
    expect(seen).toHaveLength(1);
    expect(seen[0].codes.get(code.id)).toEqual({ accountId: account, folderId: folder.id, shortCode: code.short_code });
    expect(seen[0].rowsOf(new Set([code.id]))).toEqual([expect.objectContaining({ codeId: code.id, referrer: 'https://r.example/' })]);
    const written = await db.tables.selectFrom('service_settings').select('name').where('name', '=', `listened:${code.id}`).execute();
    expect(written).toHaveLength(1);
  });

  it('stores nothing when a listener fails: no rows, no counts, no listener writes, and the batch can be stored later', async () => {
    const code = await rows.dynamicCode(account);
    const listeners = new StoredScanListeners();
    listeners.inTransaction(async (tx) => {
      await tx.query(`INSERT INTO service_settings (name, value) VALUES ($1, 'x')`, [`failed:${code.id}`]);
      throw new Error('listener failed');
    });
    const batch = batchOf(recordedScan(code.id));
    await expect(new ScanStoreRepository(db.database, listeners).storeBatches([batch])).rejects.toThrow('listener failed');
    expect(await eventsOf(code.id)).toEqual([]);
    expect(await scansOf(code.id)).toBe(0);
    expect(await db.tables.selectFrom('service_settings').select('name').where('name', '=', `failed:${code.id}`).execute()).toEqual([]);
    expect(await store.storeBatches([batch])).toBe(1);
    expect(await scansOf(code.id)).toBe(1);
  });

  it('forgets only the batch ids stored before the cutoff; a forgotten batch’s replay is still refused by the events’ key', async () => {
    const code = await rows.dynamicCode(account);
    const old = batchOf(recordedScan(code.id));
    const recent = batchOf(recordedScan(code.id));
    await store.storeBatches([old, recent]);
    await db.tables
      .updateTable('scan_batches')
      .set({ stored_at: new Date('2020-01-01T00:00:00Z') })
      .where('id', '=', old.id)
      .execute();
    await store.forgetBatchesStoredBefore(new Date('2021-01-01T00:00:00Z'));
    const remembered = await db.tables.selectFrom('scan_batches').select('id').where('id', 'in', [old.id, recent.id]).execute();
    expect(remembered.map((row) => row.id)).toEqual([recent.id]);
    expect(await store.storeBatches([recent])).toBe(0);
    // Past the sweep the scan events' own key still refuses the replay: the transaction fails, nothing is counted twice.
    await expect(store.storeBatches([old])).rejects.toThrow(/duplicate key|unique/i);
    expect(await scansOf(code.id)).toBe(2);
  });

  it('creates the visitor secret once and returns the same one to every caller, concurrent first calls included', async () => {
    const [first, second] = await Promise.all([store.visitorSecret(), store.visitorSecret()]);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(second).toBe(first);
    expect(await new ScanStoreRepository(db.database, new StoredScanListeners()).visitorSecret()).toBe(first);
    const stored = await db.tables.selectFrom('service_settings').select('value').where('name', '=', 'visitor_hash_secret').execute();
    expect(stored).toEqual([{ value: first }]);
  });
});
