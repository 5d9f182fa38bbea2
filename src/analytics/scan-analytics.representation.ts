import type { AccountScanAggregates, AccountScanFilter, ScanAggregates } from './scan-aggregates';
import type { RuleNames } from './rule-names';
import type { ScanWindow } from './scan-range';

/** The JSON body of GET /qrcodes/:id/scans (the interceptor adds `request_id`); see dto/scan-analytics.views.ts. Rules and arms carry their names. */
export function toScanAnalyticsView(codeId: string, window: ScanWindow, aggregates: ScanAggregates, names: RuleNames) {
  return {
    qr_code_id: codeId,
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    interval: window.interval,
    tz: window.timeZone,
    totals: {
      scans: aggregates.totals.scans,
      unique_visitors: aggregates.totals.uniqueVisitors,
      bot_scans: aggregates.totals.botScans,
    },
    series: aggregates.series.map((bucket) => ({ start: bucket.start.toISOString(), scans: bucket.scans, unique_visitors: bucket.uniqueVisitors })),
    breakdowns: aggregates.breakdowns,
    by_country: aggregates.byCountry,
    by_city: aggregates.byCity,
    by_rule: aggregates.byRule.map(({ rule, scans }) => ({ rule, name: names.rule(rule), scans })),
    by_arm: aggregates.byArm.map(({ rule, arm, scans }) => ({ rule, arm, name: names.arm(rule, arm), scans })),
  };
}

/** The JSON body of GET /analytics (the interceptor adds `request_id`); see dto/scan-analytics.views.ts. */
export function toAccountAnalyticsView(window: ScanWindow, filter: AccountScanFilter, aggregates: AccountScanAggregates) {
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    interval: window.interval,
    tz: window.timeZone,
    filters: { folder_id: filter.folderId ?? null, type: filter.type ?? null },
    totals: {
      scans: aggregates.totals.scans,
      unique_visitors: aggregates.totals.uniqueVisitors,
      bot_scans: aggregates.totals.botScans,
    },
    series: aggregates.series.map((bucket) => ({ start: bucket.start.toISOString(), scans: bucket.scans, unique_visitors: bucket.uniqueVisitors })),
    top_codes: aggregates.topCodes.map((code) => ({
      id: code.codeId,
      name: code.name,
      short_code: code.shortCode,
      type: code.type,
      scans: code.scans,
    })),
    breakdowns: aggregates.breakdowns,
    by_country: aggregates.byCountry,
    by_city: aggregates.byCity,
  };
}
