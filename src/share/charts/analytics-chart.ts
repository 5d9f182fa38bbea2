import { barChartSvg } from './bar-chart';
import { seriesChartSvg, type SeriesInterval } from './series-chart';

export const ANALYTICS_CHARTS = ['series', 'countries', 'devices', 'os', 'browsers', 'referrers'] as const;
export type AnalyticsChart = (typeof ANALYTICS_CHARTS)[number];

/** The parts of an analytics answer (GET /scans, GET /analytics) that the charts draw, in the API's names. */
export interface ChartedAnalytics {
  interval: SeriesInterval;
  tz: string;
  series: ReadonlyArray<{ start: string; scans: number; unique_visitors: number }>;
  breakdowns: Record<'device' | 'os' | 'browser' | 'referrer', ReadonlyArray<{ value: string; scans: number }>>;
  by_country: ReadonlyArray<{ value: string; scans: number }>;
}

const BAR_CHARTS: Record<
  Exclude<AnalyticsChart, 'series'>,
  { title: string; rows: (view: ChartedAnalytics) => ReadonlyArray<{ value: string; scans: number }> }
> = {
  countries: { title: 'Top countries', rows: (view) => view.by_country },
  devices: { title: 'Devices', rows: (view) => view.breakdowns.device },
  os: { title: 'Operating systems', rows: (view) => view.breakdowns.os },
  browsers: { title: 'Browsers', rows: (view) => view.breakdowns.browser },
  referrers: { title: 'Referrers', rows: (view) => view.breakdowns.referrer },
};

/** One chart of an analytics answer as an SVG document: the numbers drawn are the answer's own. */
export function analyticsChartSvg(view: ChartedAnalytics, chart: AnalyticsChart): string {
  if (chart === 'series') {
    const points = view.series.map((bucket) => ({ start: new Date(bucket.start), scans: bucket.scans, uniqueVisitors: bucket.unique_visitors }));
    return seriesChartSvg({ id: 'chart', title: `Scans per ${view.interval}`, points, interval: view.interval, timeZone: view.tz });
  }
  const bars = BAR_CHARTS[chart];
  return barChartSvg({ id: 'chart', title: bars.title, rows: bars.rows(view).map((row) => ({ label: row.value, value: row.scans })) });
}
