import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Background work runs on the one job runner (docs/architecture.md#jobs): a queue or a periodic
 * task registered with JobRunner, never a timer loop or a claim of its own. This spec fails on a
 * timer (setInterval, setTimeout, setImmediate) or a SKIP LOCKED claim in a file that is not listed
 * here with the reason it is not background work (or, for claims, whose queue it is).
 */
const SRC = join(__dirname, '..', '..');

/** The runner's own files: its loop, its one claim, its scheduler and its metrics. */
const RUNNER = [
  'infra/jobs/claim-loop.ts',
  'infra/jobs/leased-queue.repository.ts',
  'infra/jobs/job-runner.service.ts',
  'infra/observability/queue-metrics.ts',
];

/** Timers that are not background work, each with its reason. */
const TIMERS: Record<string, string> = {
  'scans/scan-buffer.service.ts':
    "the request path's hand-on: scans recorded by this process's redirects go to PostgreSQL every 100 ms (and staged ones drain every " +
    "second, and this process's memory of stored batch ids is trimmed hourly); this process's own memory, not shared work",
  'gs1/scans/gs1-scan-buffer.ts':
    "the GS1 resolver's hand-on, like the scan buffer's: resolutions this process answered go to PostgreSQL every 250 ms; this process's own memory",
  'infra/observability/hot-path-metrics.ts': "flushes this process's in-memory counters into its own /metrics registry",
  'infra/database/pg-link-watchdog.ts': "watches this process's own pooled connections for dead links",
  'infra/database/database-connection.ts': 'the budget of one probe, and a pause while a pool closes',
  'infra/clickhouse/clickhouse-connection.ts': 'the budget of one ClickHouse statement',
  'common/concurrency/concurrency-limit.ts': 'how long one caller waits for a slot',
  'common/concurrency/read-write-gate.ts': 'how long one read waits for a commit',
  'domains/dns-txt-lookup.ts': 'the budget of one DNS lookup',
  'webhooks/delivery/webhook-sender.ts': 'the budget of one delivery attempt',
  'analytics/retention/scan-retention.service.ts': "a pause between two tries of one month's drop, within a run of the periodic task",
  'main.ts': 'the deadline of the shutdown',
};

/**
 * SKIP LOCKED outside the runner's files, each with its reason. Every queue claims through the one
 * claim (LeasedQueueRepository); what is left are locks within one periodic task's run.
 */
const CLAIMS: Record<string, string> = {
  'domains/domains.repository.ts':
    'periodic task `domain-recheck`: a run takes the domains due as it checks them (a run of a periodic task, not a queue)',
};

const TIMER = /\b(setInterval|setTimeout|setImmediate)\s*\(/;
const SKIP_LOCKED = /skipLocked\s*\(|SKIP\s+LOCKED/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !/[.-]spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Code lines only: a comment may name a timer or SKIP LOCKED. */
function codeLines(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line));
}

describe('background work', () => {
  const files = sourceFiles(SRC).map((file) => ({ name: relative(SRC, file), lines: codeLines(file) }));

  it('runs no timer outside the job runner, except the listed ones that are not background work', () => {
    const found = files.filter((file) => !RUNNER.includes(file.name) && file.lines.some((line) => TIMER.test(line))).map((file) => file.name);
    expect(found.filter((name) => !(name in TIMERS))).toEqual([]);
    // A listed file that no longer has a timer is dropped from the list.
    expect(Object.keys(TIMERS).filter((name) => !found.includes(name))).toEqual([]);
  });

  it('claims with SKIP LOCKED only in the runner (the one claim) or where the list says why', () => {
    const found = files.filter((file) => !RUNNER.includes(file.name) && file.lines.some((line) => SKIP_LOCKED.test(line))).map((file) => file.name);
    expect(found.filter((name) => !(name in CLAIMS))).toEqual([]);
    expect(Object.keys(CLAIMS).filter((name) => !found.includes(name))).toEqual([]);
  });

  it('finds a loop written outside the runner', () => {
    expect(TIMER.test('this.timer = setInterval(() => this.sweep(), HOUR_MS);')).toBe(true);
    expect(TIMER.test('const again = () => setTimeout(again, 1000);')).toBe(true);
    expect(SKIP_LOCKED.test('sql`SELECT id FROM things FOR UPDATE SKIP LOCKED`')).toBe(true);
    expect(SKIP_LOCKED.test('.forUpdate().skipLocked()')).toBe(true);
  });
});
