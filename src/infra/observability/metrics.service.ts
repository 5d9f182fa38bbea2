import { Injectable } from '@nestjs/common';
import { Counter, Histogram, register } from 'prom-client';

/** Every Prometheus metric of the app, in one place (served at /metrics). */
@Injectable()
export class MetricsService {
  readonly httpDuration = reuse('http_request_duration_seconds', () => new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  }));
  readonly rateLimitFailOpen = counter('rate_limit_fail_open_total', 'Requests let through because the rate-limit storage failed');
  readonly imageCacheHits = counter('image_cache_hits_total', 'Image requests served from the cache');
  readonly imageCacheMisses = counter('image_cache_misses_total', 'Image requests rendered fresh');
  readonly searchCache = counter('list_search_cache_total', 'Search totals and pages by cache result', ['result']);
  readonly redirects = counter('redirects_total', 'Redirect host answers by outcome', ['outcome']);
  readonly scansBuffered = counter('scans_buffered_total', 'Scans recorded into the buffer');
  readonly scansFlushed = counter('scans_flushed_total', 'Scans flushed from the buffer to the database');
}

/** prom-client's registry is process-global: a second app in the same process (tests) reuses the metric. */
function reuse<T>(name: string, create: () => T): T {
  return (register.getSingleMetric(name) as T | undefined) ?? create();
}

function counter(name: string, help: string, labelNames: string[] = []): Counter {
  return reuse(name, () => new Counter({ name, help, labelNames }));
}
