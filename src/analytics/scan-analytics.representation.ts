import type { ScanAggregates } from './scan-aggregates';
import type { ScanWindow } from './scan-range';

/** The JSON body of GET /qrcodes/:id/scans (the interceptor adds `request_id`); see dto/scan-analytics.views.ts. */
export function toScanAnalyticsView(codeId: string, window: ScanWindow, aggregates: ScanAggregates) {
  return {
    qr_code_id: codeId,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    interval: window.interval,
    totals: {
      scans: aggregates.totals.scans,
      unique_visitors: aggregates.totals.uniqueVisitors,
      bot_scans: aggregates.totals.botScans,
    },
    series: aggregates.series.map((bucket) => ({ start: bucket.start.toISOString(), scans: bucket.scans, unique_visitors: bucket.uniqueVisitors })),
    breakdowns: aggregates.breakdowns,
    by_country: aggregates.byCountry,
    by_city: aggregates.byCity,
    by_rule: aggregates.byRule,
    by_arm: aggregates.byArm,
  };
}
