/**
 * CSV import, ZIP export and the list's CSV export (docs/exports-and-imports.md), through the real
 * HTTP server on PostgreSQL: an import of 10,000 rows with 1 % invalid (rows per second, and the
 * exact results), a ZIP of 1,000 codes as PNG at 1000 px (wall time, and the process's peak RSS
 * over idle), and the CSV export of BENCH_CSV_CODES codes (default 1,000,000; time and peak RSS).
 * The CSV is downloaded by curl in a process of its own, so the RSS is the server's alone; the
 * peaks of the first and the second half of the download show whether memory grows with the
 * number of codes.
 *
 *   node --expose-gc -r @swc-node/register bench/imports-exports.ts
 *
 * Environment: BENCH_PG_URL (admin connection), BENCH_DB (default qr_bench_files; must start with
 * qr_bench: it is dropped), BENCH_REDIS_URL, BENCH_CSV_CODES, BENCH_ZIP_FORMAT (png, pdf or svg;
 * default png), BENCH_CSV_ONLY=1 (the CSV export alone).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { migratePostgres } from '../src/infra/database/database-connection';

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DB_NAME = process.env.BENCH_DB ?? 'qr_bench_files';
const CSV_CODES = Number(process.env.BENCH_CSV_CODES ?? 1_000_000);
const ZIP_FORMAT = process.env.BENCH_ZIP_FORMAT ?? 'png';
const CSV_ONLY = process.env.BENCH_CSV_ONLY === '1';
if (!/^qr_bench[a-z0-9_]*$/.test(DB_NAME)) throw new Error('BENCH_DB must match ^qr_bench[a-z0-9_]*$ (the bench drops it)');

async function sqlOn(url: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Samples this process's RSS every 20 ms while `work` runs; answers the work's result, the peak, and the peaks of each half of the time. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number; halvesMb: [number, number]; heapPeakMb: number }> {
  const samples: Array<[number, number]> = [[performance.now(), process.memoryUsage.rss()]];
  let heapPeak = 0;
  const timer = setInterval(() => {
    const usage = process.memoryUsage();
    samples.push([performance.now(), usage.rss]);
    heapPeak = Math.max(heapPeak, usage.heapUsed);
  }, 20);
  try {
    const result = await work();
    samples.push([performance.now(), process.memoryUsage.rss()]);
    const middle = (samples[0][0] + samples[samples.length - 1][0]) / 2;
    const peakOf = (part: Array<[number, number]>) => Math.max(0, ...part.map(([, rss]) => rss)) / 1024 / 1024;
    return {
      result,
      peakMb: peakOf(samples),
      halvesMb: [peakOf(samples.filter(([at]) => at <= middle)), peakOf(samples.filter(([at]) => at > middle))],
      heapPeakMb: heapPeak / 1024 / 1024,
    };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  await sqlOn(ADMIN_URL, `DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  await sqlOn(ADMIN_URL, `CREATE DATABASE "${DB_NAME}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  await migratePostgres(url.toString());
  const config = loadAppConfig({
    DATABASE_URL: url.toString(),
    REDIS_URL,
    REDIS_KEY_PREFIX: `qr-bench-files:${process.pid}:`,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    BASE_URL: 'http://api.bench',
    REDIRECT_URL: 'http://qr.bench',
  });
  const app = await createApp(config, { logger: false });
  await app.getHttpAdapter().getInstance().ready();
  const api = app.getHttpAdapter().getInstance();
  const request = async (method: 'GET' | 'POST', path: string, key: string, payload?: string | object, type?: string) =>
    api.inject({
      method,
      url: path,
      headers: { 'x-api-key': key, ...(type && { 'content-type': type }) },
      ...(payload !== undefined && { payload }),
    });
  const waitFor = async (key: string, path: string) => {
    for (;;) {
      const job = (await request('GET', path, key)).json<{ status: string; counts?: Record<string, number>; bytes?: number }>();
      if (job.status === 'done' || job.status === 'failed') return job;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    let started = performance.now();
    if (!CSV_ONLY) {
      const { key } = await app.get(ApiKeysService).create('bench');
      const lines = ['type,name,is_dynamic,content.url'];
      for (let i = 0; i < 10_000; i++) lines.push(`url,Row ${i},${i % 2 === 0},${i % 100 === 5 ? 'ftp://x.test/' : `https://example.com/${i}`}`);
      started = performance.now();
      const posted = await request('POST', '/api/v1/imports', key, lines.join('\n'), 'text/csv');
      const imported = await waitFor(key, `/api/v1/imports/${posted.json<{ id: string }>().id}?limit=1`);
      const importMs = performance.now() - started;
      console.log(
        `import of 10,000 rows (100 invalid): ${importMs.toFixed(0)} ms, ${((10_000 / importMs) * 1000).toFixed(0)} rows/s; ` +
          `results ${JSON.stringify(imported.counts)}`,
      );

      const importId = posted.json<{ id: string }>().id;
      const rows = (await request('GET', `/api/v1/imports/${importId}?status=created&limit=1000`, key)).json<{ rows: Array<{ id: string }> }>().rows;
      const ids = rows.map((row) => row.id);
      global.gc?.();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const idleMb = process.memoryUsage.rss() / 1024 / 1024;
      console.log(
        `idle after a full GC: RSS ${idleMb.toFixed(0)} MB, JS heap in use ${(process.memoryUsage().heapUsed / 1024 / 1024).toFixed(0)} MB`,
      );
      started = performance.now();
      const zip = await withPeakRss(async () => {
        const job = await request('POST', '/api/v1/exports', key, { format: ZIP_FORMAT, size: 1000, ids });
        const done = await waitFor(key, `/api/v1/exports/${job.json<{ id: string }>().id}`);
        const download = await request('GET', `/api/v1/exports/${job.json<{ id: string }>().id}/download`, key);
        return { done, bytes: download.rawPayload.length };
      });
      console.log(
        `ZIP export of ${ids.length} codes (${ZIP_FORMAT}, 1000 px): ${(performance.now() - started).toFixed(0)} ms for ${zip.result.bytes} bytes ` +
          `(${zip.result.done.status}); RSS idle ${idleMb.toFixed(0)} MB, peak ${zip.peakMb.toFixed(0)} MB ` +
          `(+${(zip.peakMb - idleMb).toFixed(0)} MB), ` +
          `JS heap in use at most ${zip.heapPeakMb.toFixed(0)} MB`,
      );
    }

    const { key: csvKey, accountId: csvAccount } = await app.get(ApiKeysService).create('bench csv');
    await sqlOn(
      url.toString(),
      `INSERT INTO qr_codes (id, account_id, name, type, content, content_string, style, is_dynamic, created_at, updated_at)
       SELECT gen_random_uuid(), '${csvAccount}', 'Code ' || n, 'url', jsonb_build_object('url', 'https://example.com/' || n),
              'https://example.com/' || n, '{}'::jsonb, false, now() - n * interval '1 millisecond', now()
       FROM generate_series(1, ${CSV_CODES}) AS n`,
    );
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const csvIdleMb = process.memoryUsage.rss() / 1024 / 1024;
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    started = performance.now();
    const csv = await withPeakRss(async () => {
      // curl in a process of its own: this process's RSS is then the server's alone.
      const { stdout } = await promisify(execFile)('sh', [
        '-c',
        `curl -sf -H 'x-api-key: ${csvKey}' 'http://127.0.0.1:${port}/api/v1/qrcodes.csv?sort=newest' | wc -lc`,
      ]);
      const [newlines, bytes] = stdout.trim().split(/\s+/).map(Number);
      return { bytes, newlines };
    });
    global.gc?.();
    const csvAfterMb = process.memoryUsage.rss() / 1024 / 1024;
    const [firstHalf, secondHalf] = csv.halvesMb;
    console.log(
      `CSV export of ${CSV_CODES} codes: ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
        `${(csv.result.bytes / 1024 / 1024).toFixed(0)} MB, ${csv.result.newlines - 1} rows; ` +
        `RSS idle ${csvIdleMb.toFixed(0)} MB, peak ${csv.peakMb.toFixed(0)} MB (+${(csv.peakMb - csvIdleMb).toFixed(0)} MB; ` +
        `first half's peak ${firstHalf.toFixed(0)} MB, second half's ${secondHalf.toFixed(0)} MB), JS heap in use at most ` +
        `${csv.heapPeakMb.toFixed(0)} MB, ${csvAfterMb.toFixed(0)} MB RSS after a full GC`,
    );
  } finally {
    await app.close();
    await sqlOn(ADMIN_URL, `DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
