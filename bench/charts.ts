/**
 * The stats page's charts, drawn by our chart module (src/share/charts/): time per chart for a
 * year of daily buckets and for a ten-row breakdown, and the whole page (six charts, tables,
 * escaping). bench/README.md#charts compares it with Vega-Lite's headless SVG renderer.
 *   node -r @swc-node/register bench/charts.ts
 */
import { barChartSvg } from '../src/share/charts/bar-chart';
import { seriesChartSvg } from '../src/share/charts/series-chart';
import { statsPageHtml } from '../src/share/stats-page/stats-page';
import { STATS_SECTIONS } from '../src/share/stats-page/stats-sections';
import { percentile } from './percentile';

const DAY_MS = 86_400_000;
const points = Array.from({ length: 365 }, (_, i) => ({
  start: new Date(Date.UTC(2026, 0, 1) + i * DAY_MS),
  scans: Math.round(1000 + 500 * Math.sin(i / 10)),
  uniqueVisitors: Math.round(700 + 300 * Math.sin(i / 10)),
}));
const rows = Array.from({ length: 10 }, (_, i) => ({ label: `value ${i}`, value: 1000 - i * 90 }));
const breakdown = rows.map((row) => ({ value: row.label, scans: row.value }));

function time(name: string, runs: number, draw: () => string): void {
  for (let i = 0; i < 200; i++) draw();
  const samples = new Float64Array(runs);
  let bytes = 0;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    bytes = draw().length;
    samples[i] = Number(process.hrtime.bigint() - start) / 1e6;
  }
  samples.sort();
  console.log(`${name}: median ${percentile(samples, 50).toFixed(3)} ms, p99 ${percentile(samples, 99).toFixed(3)} ms, ${bytes} bytes`);
}

time('series, 365 daily buckets', 2000, () =>
  seriesChartSvg({ id: 's', title: 'Scans per day', points, interval: 'day', timeZone: 'Europe/Berlin' }),
);
time('bars, 10 rows', 5000, () => barChartSvg({ id: 'b', title: 'Browsers', rows }));
time('whole page, 6 charts', 1000, () =>
  statsPageHtml({
    name: 'Spring menu',
    kind: 'QR code',
    window: { from: points[0].start, to: new Date(points[364].start.getTime() + DAY_MS), interval: 'day', timeZone: 'UTC', days: 365 },
    totals: { scans: 365_000, uniqueVisitors: 250_000 },
    series: points,
    breakdowns: { countries: breakdown, devices: breakdown, os: breakdown, browsers: breakdown, referrers: breakdown },
    sections: new Set(STATS_SECTIONS),
    pagePath: '/s/token',
    jsonPath: '/s/token.json',
  }),
);
