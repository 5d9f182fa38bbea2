import { Injectable } from '@nestjs/common';
import { Counter, Gauge, register } from 'prom-client';
import { LabelledCount, RequestDurations } from './hot-path-metrics';

/** Every Prometheus metric of the app, in one place (served at /metrics). */
@Injectable()
export class MetricsService {
  /** Updated by every request: buffered (hot-path-metrics.ts). */
  readonly httpDuration = hot(
    'http_request_duration_seconds',
    () =>
      new RequestDurations({
        name: 'http_request_duration_seconds',
        help: 'HTTP request duration by route and status',
        buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      }),
  );
  readonly rateLimitFailOpen = counter('rate_limit_fail_open_total', 'Requests let through because the rate-limit storage failed');
  readonly imageCacheHits = counter('image_cache_hits_total', 'Image requests served from the cache');
  readonly imageCacheMisses = counter('image_cache_misses_total', 'Image requests rendered fresh');
  readonly searchCache = counter('list_search_cache_total', 'Search totals and pages by cache result', ['result']);
  /** Updated by every scan: buffered (hot-path-metrics.ts). */
  readonly redirects = hot(
    'redirects_total',
    () => new LabelledCount({ name: 'redirects_total', help: 'Redirect host answers by outcome', labelName: 'outcome' }),
  );
  /** Added to as scans are written into batches (every hand-on), not scan by scan. */
  readonly scansBuffered = counter('scans_buffered_total', 'Scans recorded into the buffer');
  readonly scansFlushed = counter('scans_flushed_total', 'Scans flushed from the buffer to the database');
  /** ClickHouse export (docs/clickhouse.md): set by the export worker after each look at its outbox. */
  readonly clickhouseExportLag = gauge(
    'clickhouse_export_lag_seconds',
    'Age of the oldest stored scan batch not yet in ClickHouse (0: caught up); analytics read PostgreSQL while it exceeds CLICKHOUSE_MAX_LAG_SECONDS',
  );
  readonly clickhouseExportPending = gauge('clickhouse_export_pending_batches', 'Stored scan batches waiting to be written to ClickHouse');
  readonly clickhouseErasuresPending = gauge(
    'clickhouse_erasures_pending',
    "Erasures of a code's scans not yet applied to ClickHouse; analytics read PostgreSQL while any waits",
  );
  readonly clickhouseUp = gauge('clickhouse_up', 'Whether ClickHouse answered its last statement (1) or failed it (0)');
  readonly clickhouseExportedScans = counter('clickhouse_exported_scans_total', 'Scan events written to ClickHouse');
  readonly scanAnalyticsReads = counter('scan_analytics_reads_total', 'Scan analytics answered, by the engine that answered', ['engine']);
}

/** prom-client's registry is process-global: a second app in the same process (tests) reuses the metric. */
function reuse<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

const hotMetrics = new Map<string, unknown>();

/** As reuse, for the buffered metrics of hot paths: one buffer per metric, as one metric per process. */
function hot<T>(name: string, create: () => T): T {
  let metric = hotMetrics.get(name) as T | undefined;
  if (metric === undefined) hotMetrics.set(name, (metric = create()));
  return metric;
}

function gauge(name: string, help: string): Gauge {
  return reuse(name, () => new Gauge({ name, help }));
}

function counter(name: string, help: string, labelNames: string[] = []): Counter {
  return reuse(name, () => new Counter({ name, help, labelNames }));
}
