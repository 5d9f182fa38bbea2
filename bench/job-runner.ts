/**
 * The job runner against a library (issue 37): enqueue latency, claim latency, jobs/s and CPU per
 * job of our runner (src/infra/jobs, the `jobs` queue) and of pg-boss 12, on the same PostgreSQL,
 * in alternating rounds.
 *
 *   npm install --prefix /tmp/jobs-eval pg-boss@12 pg     # outside the project: pg-boss 12 declares Node ≥ 22.12
 *   node -r @swc-node/register bench/job-runner.ts
 *
 * Env: BENCH_PG (server URL, default postgresql://postgres@127.0.0.1:5432), PGBOSS_DIR (where
 * pg-boss is installed, default /tmp/jobs-eval), JOBS (per throughput run, default 10000), ROUNDS
 * (default 3), WORKERS (concurrent claim loops, default 4), ACCOUNTS (groups, default 100).
 *
 * Both runners get the same work and the same limit: at most 2 running jobs per account (ours:
 * the jobs queue's `perGroup`; pg-boss: `groupConcurrency: 2` with the account as the group, its
 * database-tracked form, which holds across instances as ours does). A job is a no-op: what is
 * measured is the queue. Latencies are of one call at a time on an otherwise idle queue; the
 * throughput run claims with WORKERS loops of up to 2 jobs per claim and completes each job.
 * CPU per job adds this process's CPU (the client) and the CPU of the database's backends for the
 * bench database (read from /proc), over the throughput run.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asAccountId, type AccountId } from '../src/common/ids/account-id';
import type { JobId } from '../src/common/ids/resource-ids';
import { connectPostgres } from '../src/infra/database/database-connection';
import { Database } from '../src/infra/database/database.service';
import { type ClaimedJob, JobQueueRepository } from '../src/infra/jobs/job-queue.repository';
import { loadAppConfig } from '../src/config/app-config';
import { freshMigratedDatabase } from '../test/support/test-databases';
import { percentile } from './percentile';

const PG = process.env.BENCH_PG ?? 'postgresql://postgres@127.0.0.1:5432';
const PGBOSS_DIR = process.env.PGBOSS_DIR ?? '/tmp/jobs-eval';
const JOBS = Number(process.env.JOBS ?? 10_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WORKERS = Number(process.env.WORKERS ?? 4);
const ACCOUNTS = Number(process.env.ACCOUNTS ?? 100);
const LATENCY_SAMPLES = 1_000;
const DB_NAME = 'qr_bench_jobs';
const QUEUE = 'bench';

/** One runner under test: what the bench asks of both. */
interface Runner {
  name: string;
  /** One job, in a transaction of its own. */
  enqueue(account: AccountId): Promise<void>;
  /** Many jobs at once (setup of the throughput run, not timed). */
  enqueueMany(accounts: readonly AccountId[], count: number): Promise<void>;
  /** Claims up to `limit` and completes each; resolves with how many it ran. */
  claimAndComplete(limit: number): Promise<number>;
  clear(): Promise<void>;
}

interface RoundFigures {
  enqueueMs: Float64Array;
  claimMs: Float64Array;
  jobsPerSecond: number;
  cpuMsPerJob: { client: number; database: number };
}

const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU (ms) of each PostgreSQL backend connected to the bench database, by pid, from /proc. */
function databaseCpuMs(): Map<string, number> {
  const byPid = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(DB_NAME)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      byPid.set(pid, (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS); // utime, stime (fields 14 and 15 of stat)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && (error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  return byPid;
}

/**
 * The backends' CPU between two readings: a backend that started meanwhile counts whole; one that
 * ended meanwhile (a pool closing an idle connection) is lost, so this is a lower bound.
 */
const databaseCpuSince = (before: Map<string, number>) =>
  [...databaseCpuMs()].reduce((sum, [pid, ms]) => sum + Math.max(0, ms - (before.get(pid) ?? 0)), 0);

const clientCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function timeEach(count: number, call: () => Promise<unknown>): Promise<Float64Array> {
  const samples = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await call();
    samples[i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  return samples.sort();
}

async function measure(runner: Runner, accounts: readonly AccountId[]): Promise<RoundFigures> {
  await runner.clear();
  let next = 0;
  const enqueueMs = await timeEach(LATENCY_SAMPLES, () => runner.enqueue(accounts[next++ % accounts.length]));
  const claimMs = await timeEach(LATENCY_SAMPLES, () => runner.claimAndComplete(1));
  await runner.clear();
  await runner.enqueueMany(accounts, JOBS);
  const cpuBefore = { client: clientCpuMs(), database: databaseCpuMs() };
  const start = process.hrtime.bigint();
  let ran = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      let idle = 0;
      while (ran < JOBS && idle < 50) {
        const n = await runner.claimAndComplete(2);
        ran += n;
        idle = n === 0 ? idle + 1 : 0;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (ran !== JOBS) throw new Error(`${runner.name}: ran ${ran} of ${JOBS} jobs`);
  return {
    enqueueMs,
    claimMs,
    jobsPerSecond: JOBS / seconds,
    cpuMsPerJob: { client: (clientCpuMs() - cpuBefore.client) / JOBS, database: databaseCpuSince(cpuBefore.database) / JOBS },
  };
}

function ours(database: Database): Runner {
  const queue = new JobQueueRepository(database);
  const submittedBy = { requestId: 'bench', principal: null };
  const newJob = () => ({ id: randomUUID() as JobId, kind: 'import' as const, params: {}, submittedBy, total: 1 });
  const finish = (job: ClaimedJob) =>
    database.transaction((tx) => queue.finish(tx, job, { status: 'done', result: null, error: null, now: new Date(), expiresAt: new Date() }));
  return {
    name: 'ours',
    enqueue: (account) => database.transaction((tx) => queue.insert(tx, account, newJob())),
    enqueueMany: async (accounts, count) => {
      for (let i = 0; i < count; i += 1000) {
        await database.transaction(async (tx) => {
          for (let j = i; j < Math.min(count, i + 1000); j++) await queue.insert(tx, accounts[j % accounts.length], newJob());
        });
      }
    },
    claimAndComplete: async (limit) => {
      const jobs = await queue.claim(['import'], new Date(), limit);
      await Promise.all(jobs.map(finish));
      return jobs.length;
    },
    clear: async () => {
      await database.write.anyAccount.deleteFrom('jobs').execute();
    },
  };
}

interface PgBossJob {
  id: string;
}
interface PgBoss {
  start(): Promise<unknown>;
  stop(options?: object): Promise<void>;
  createQueue(name: string, options?: object): Promise<void>;
  deleteAllJobs(name: string): Promise<void>;
  send(name: string, data: object, options?: object): Promise<string | null>;
  insert(name: string, jobs: object[]): Promise<unknown>;
  fetch(name: string, options?: object): Promise<PgBossJob[]>;
  complete(name: string, ids: string | string[]): Promise<unknown>;
}

// pg-boss is an ES module outside the project; this file runs as CommonJS (swc), whose `import()`
// would become `require()`.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a real import() is what is wanted here
const importModule = new Function('path', 'return import(path)') as (path: string) => Promise<{ PgBoss: new (options: object) => PgBoss }>;

async function pgBoss(url: string): Promise<{ runner: Runner; stop: () => Promise<void> }> {
  const { PgBoss } = await importModule(join(PGBOSS_DIR, 'node_modules', 'pg-boss', 'dist', 'index.js'));
  // Maintenance and the scheduler off: the bench times the queue, as ours is timed without its sweep;
  // idle connections kept, so that the backends' CPU stays countable (as our pools keep theirs 30 s).
  const boss = new PgBoss({ connectionString: url, max: 10, idleTimeoutMillis: 600_000, supervise: false, schedule: false });
  await boss.start();
  await boss.createQueue(QUEUE);
  const group = (account: AccountId) => ({ group: { id: account } });
  return {
    runner: {
      name: 'pg-boss',
      enqueue: async (account) => {
        await boss.send(QUEUE, { total: 1 }, group(account));
      },
      enqueueMany: async (accounts, count) => {
        for (let i = 0; i < count; i += 1000) {
          const job = (j: number) => ({ data: { total: 1 }, ...group(accounts[(i + j) % accounts.length]) });
          const jobs = Array.from({ length: Math.min(1000, count - i) }, (_, j) => job(j));
          await boss.insert(QUEUE, jobs);
        }
      },
      claimAndComplete: async (limit) => {
        const jobs = await boss.fetch(QUEUE, { batchSize: limit, groupConcurrency: 2 });
        if (jobs.length > 0)
          await boss.complete(
            QUEUE,
            jobs.map((job) => job.id),
          );
        return jobs.length;
      },
      clear: () => boss.deleteAllJobs(QUEUE),
    },
    stop: () => boss.stop({ graceful: false, wait: true }),
  };
}

const ms = (value: number) => value.toFixed(2);

function report(name: string, rounds: RoundFigures[]): void {
  for (const [i, round] of rounds.entries()) {
    console.log(
      `${name.padEnd(8)} round ${i + 1}: enqueue p50 ${ms(percentile(round.enqueueMs, 50))} p99 ${ms(percentile(round.enqueueMs, 99))} ms; ` +
        `claim+complete p50 ${ms(percentile(round.claimMs, 50))} p99 ${ms(percentile(round.claimMs, 99))} ms; ` +
        `${round.jobsPerSecond.toFixed(0)} jobs/s; ` +
        `CPU per job ${ms(round.cpuMsPerJob.client)} ms client + ${ms(round.cpuMsPerJob.database)} ms database`,
    );
  }
}

async function main(): Promise<void> {
  const url = await freshMigratedDatabase(PG, DB_NAME);
  const config = loadAppConfig({ DATABASE_URL: url, DATA_DIR: '/tmp', LOG_LEVEL: 'silent' });
  const database = new Database(connectPostgres(url, config.database));
  const accounts: AccountId[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const id = asAccountId(randomUUID());
    await database.write.anyAccount.insertInto('accounts').values({ id }).execute();
    accounts.push(id);
  }
  const boss = await pgBoss(url);
  const runners = [ours(database), boss.runner];
  const figures = new Map<string, RoundFigures[]>(runners.map((runner) => [runner.name, []]));
  console.log(`${JOBS} jobs per throughput run, ${WORKERS} claim loops, ${ACCOUNTS} accounts (≤ 2 running each), ${LATENCY_SAMPLES} latency samples`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const runner of round % 2 === 0 ? runners : [...runners].reverse()) figures.get(runner.name)!.push(await measure(runner, accounts));
  }
  for (const [name, rounds] of figures) report(name, rounds);
  await boss.stop();
  await database.onApplicationShutdown();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
