import { randomUUID } from 'node:crypto';
import type { AccountId } from '../../common/ids/account-id';
import type { JobId } from '../../common/ids/resource-ids';
import { useMediumDatabase } from '../../../test/support/medium';
import { RowFactory } from '../../../test/support/row-factories';
import { JOBS_QUEUE, JobQueueRepository } from './job-queue.repository';

// After the real time: a job is due from its insertion (the database's clock).
const T0 = Date.parse('2036-03-01T12:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

describe('JobQueueRepository (medium)', () => {
  const db = useMediumDatabase();
  let queue: JobQueueRepository;
  let rows: RowFactory;

  beforeAll(() => {
    queue = new JobQueueRepository(db.database);
    rows = new RowFactory(db.tables);
  });

  beforeEach(async () => {
    // The claim serves every account: each test starts with no job.
    await db.tables.deleteFrom('jobs').execute();
  });

  const submit = async (accountId: AccountId, kind: 'export' | 'import' = 'import') => {
    const id = randomUUID() as JobId;
    await queue.insert(db.database.write, accountId, { id, kind, params: { n: 1 }, submittedBy: { requestId: 'r1', principal: null }, total: 3 });
    return id;
  };
  const stored = (id: JobId) => db.tables.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('claims each job once, however many instances claim at the same moment', async () => {
    const accounts = await Promise.all(Array.from({ length: 10 }, () => rows.account()));
    const ids = await Promise.all(accounts.map((account) => submit(account)));
    const claimed: JobId[] = [];
    // Rounds of five instances claiming at once, until every job is taken.
    for (let round = 0; round < 10 && claimed.length < ids.length; round++) {
      const claims = await Promise.all(Array.from({ length: 5 }, () => queue.claim(['import'], at(0), 2)));
      expect(claims.every((claim) => claim.length <= 2)).toBe(true);
      claimed.push(...claims.flat().map((job) => job.id));
    }
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...ids].sort());
  });

  it('runs at most 2 jobs of an account at once, counting other instances’ live leases; the others wait', async () => {
    const busy = await rows.account();
    const quiet = await rows.account();
    for (let i = 0; i < 4; i++) await submit(busy);
    const other = await submit(quiet);
    const first = await queue.claim(['import'], at(0), 1);
    expect(first.map((job) => job.accountId)).toEqual([busy]);
    const second = await queue.claim(['import'], at(0), 2);
    expect(second.filter((job) => job.accountId === busy)).toHaveLength(1);
    expect(second.map((job) => job.id)).toContain(other);
    expect(await queue.claim(['import'], at(0), 2)).toEqual([]);
    // A lease run out (its instance died) frees the slot: the job is claimed again, and counts its attempt.
    const later = await queue.claim(['import'], at(61), 2);
    expect(later.filter((job) => job.accountId === busy)).toHaveLength(2);
    expect(later.some((job) => job.id === first[0].id && job.attempts === 2)).toBe(true);
  });

  it('claims only the kinds asked for, with what it takes to run them', async () => {
    const account = await rows.account();
    const exportId = await submit(account, 'export');
    await submit(account, 'import');
    const [job] = await queue.claim(['export'], at(0), 2);
    expect(job).toEqual({
      id: exportId,
      accountId: account,
      kind: 'export',
      params: { n: 1 },
      input: null,
      submittedBy: { requestId: 'r1', principal: null },
      total: 3,
      done: 0,
      attempts: 1,
      leaseToken: expect.any(String) as string,
    });
    expect(await stored(exportId)).toMatchObject({ status: 'running', lease_expires_at: at(60), started_at: at(0) });
  });

  it('records progress and the end only while the job holds its lease', async () => {
    const account = await rows.account();
    const id = await submit(account);
    const [job] = await queue.claim(['import'], at(0), 2);
    expect(await queue.progress(db.database.write, job, 2, at(90))).toBe(true);
    expect(await stored(id)).toMatchObject({ done: 2, lease_expires_at: at(90) });
    // Taken over after its lease ran out: the first claimant's reports are refused.
    const [again] = await queue.claim(['import'], at(91), 2);
    expect(await queue.progress(db.database.write, job, 3, at(200))).toBe(false);
    expect(await queue.finish(db.database.write, job, { status: 'done', result: {}, error: null, now: at(95), expiresAt: at(1000) })).toBe(false);
    expect(await queue.finish(db.database.write, again, { status: 'done', result: { rows: 3 }, error: null, now: at(95), expiresAt: at(1000) })).toBe(
      true,
    );
    expect(await stored(id)).toMatchObject({
      status: 'done',
      done: 2,
      result: { rows: 3 },
      lease_token: null,
      input: null,
      finished_at: at(95),
      expires_at: at(1000),
    });
  });

  it('fails a job claimed more often than its retry policy allows instead of running it again; gives back a job uncounted at shutdown', async () => {
    const account = await rows.account();
    const id = await submit(account);
    const [job] = await queue.claim(['import'], at(0), 2);
    await queue.release(job, at(0), true);
    expect(await stored(id)).toMatchObject({ attempts: 0, status: 'queued', lease_token: null });
    const maxAttempts = JOBS_QUEUE.retry.maxAttempts!;
    // Its instance died each time: the lease ran out each time.
    for (let i = 1; i <= maxAttempts; i++) expect(await queue.claim(['import'], at(100 * i), 2)).toHaveLength(1);
    expect(await queue.claim(['import'], at(100 * (maxAttempts + 1)), 2)).toEqual([]);
    expect(await stored(id)).toMatchObject({ status: 'failed', error: `Stopped after ${maxAttempts} attempts` });
  });

  it('queues a job given back after a failure again from its retry time', async () => {
    const account = await rows.account();
    const id = await submit(account);
    const [job] = await queue.claim(['import'], at(0), 2);
    await queue.release(job, at(30), false);
    expect(await stored(id)).toMatchObject({ attempts: 1, status: 'queued', next_attempt_at: at(30) });
    expect(await queue.claim(['import'], at(29), 2)).toEqual([]);
    expect((await queue.claim(['import'], at(30), 2)).map((claimed) => claimed.attempts)).toEqual([2]);
  });

  it('sweeps jobs past their expiry', async () => {
    const account = await rows.account();
    const id = await submit(account);
    const kept = await submit(account);
    const [job] = await queue.claim(['import'], at(0), 1);
    expect(job.id).toBe(id);
    await queue.finish(db.database.write, job, { status: 'done', result: {}, error: null, now: at(1), expiresAt: at(10) });
    expect(await queue.leased.sweep(at(11))).toBe(1);
    expect(await db.tables.selectFrom('jobs').select('id').execute()).toEqual([{ id: kept }]);
  });
});
