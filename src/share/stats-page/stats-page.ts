import { createHash } from 'node:crypto';
import { escapeHtml } from '../../redirect/landing/html';
import { barChartSvg } from '../charts/bar-chart';
import { seriesChartSvg, type SeriesInterval, type SeriesPoint, bucketLabelFormat } from '../charts/series-chart';
import { BREAKDOWN_SECTIONS, type BreakdownSection, intervalsFor, STATS_RANGES, type StatsRange, type StatsSection } from './stats-sections';
import { STATS_PAGE_STYLE } from './stats-page-style';

/** Everything a stats page shows: no visitor hashes, no raw rows, only counts. */
export interface StatsPageData {
  /** The code's, folder's or tag's name. */
  name: string;
  /** What is shared: "QR code", "Folder", "Tag". */
  kind: string;
  /** The code's QR image, an SVG document from our renderer; none for folders and tags. */
  imageSvg?: string;
  window: { from: Date; to: Date; interval: SeriesInterval; timeZone: string; days: StatsRange };
  totals: { scans: number; uniqueVisitors: number };
  series: readonly SeriesPoint[];
  breakdowns: Partial<Record<BreakdownSection, ReadonlyArray<{ value: string; scans: number }>>>;
  sections: ReadonlySet<StatsSection>;
  /** The page's own path (the form submits to it), and the JSON twin's. */
  pagePath: string;
  jsonPath: string;
}

/**
 * The one script of the page: with no `tz` in the address, reload once in the viewer's zone. The
 * page works without it (in UTC, with a zone field to change).
 */
const ZONE_SCRIPT =
  "(function(){var u=new URL(location.href);if(u.searchParams.has('tz'))return;" +
  'try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;' +
  "if(z&&z!=='UTC'){u.searchParams.set('tz',z);location.replace(u.toString())}}catch(e){}})()";
/** For the Content-Security-Policy: the page runs this script and nothing else. */
export const STATS_PAGE_SCRIPT_HASH = `sha256-${createHash('sha256').update(ZONE_SCRIPT).digest('base64')}`;

/** The whole HTML document of a shared stats page. */
export function statsPageHtml(data: StatsPageData): string {
  const title = `${data.name} · statistics`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer">' +
    `<title>${escapeHtml(title)}</title><style>${STATS_PAGE_STYLE}</style><script>${ZONE_SCRIPT}</script></head>` +
    `<body><main>${header(data)}${controls(data)}${totals(data)}${series(data)}${breakdowns(data)}` +
    `<footer><p>Read-only statistics shared by the owner of this ${escapeHtml(data.kind.toLowerCase())}. People are counted, bots are not. ` +
    `<a href="${escapeHtml(data.jsonPath)}">The same data as JSON</a>.</p></footer></main></body></html>`
  );
}

function header(data: StatsPageData): string {
  const image = data.imageSvg ? `<div class="qr" role="img" aria-label="QR code of ${escapeHtml(data.name)}">${data.imageSvg}</div>` : '';
  const heading = `<p class="kind">${escapeHtml(data.kind)}</p><h1 dir="auto">${escapeHtml(data.name)}</h1>`;
  return `<header>${image}<div>${heading}${windowLine(data)}</div></header>`;
}

function windowLine(data: StatsPageData): string {
  const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: data.window.timeZone });
  const last = new Date(data.window.to.getTime() - 1);
  return `<p class="sub">${escapeHtml(day.format(data.window.from))} – ${escapeHtml(day.format(last))} · ${escapeHtml(data.window.timeZone)}</p>`;
}

function controls(data: StatsPageData): string {
  const option = (value: string, label: string, selected: boolean) =>
    `<option value="${escapeHtml(value)}"${selected ? ' selected' : ''}>${escapeHtml(label)}</option>`;
  const ranges = STATS_RANGES.map((days) => option(String(days), `Last ${days} days`, days === data.window.days)).join('');
  const intervals = intervalsFor(data.window.days)
    .map((interval) => option(interval, `By ${interval}`, interval === data.window.interval))
    .join('');
  return (
    `<form class="controls" method="get" action="${escapeHtml(data.pagePath)}">` +
    `<label>Range <select name="days">${ranges}</select></label>` +
    `<label>Interval <select name="interval">${intervals}</select></label>` +
    `<label>Time zone <input name="tz" value="${escapeHtml(data.window.timeZone)}" autocomplete="off" spellcheck="false"></label>` +
    '<button type="submit">Show</button></form>'
  );
}

function totals(data: StatsPageData): string {
  if (!data.sections.has('totals')) return '';
  const tile = (label: string, value: number) =>
    `<div class="tile"><span class="number">${value.toLocaleString('en-US')}</span><span>${label}</span></div>`;
  const tiles = tile('Scans', data.totals.scans) + tile('Unique visitors', data.totals.uniqueVisitors);
  return `<section aria-label="Totals" class="tiles">${tiles}</section>`;
}

function series(data: StatsPageData): string {
  if (!data.sections.has('series')) return '';
  const heading = `Scans per ${data.window.interval}`;
  const chart = seriesChartSvg({
    id: 'chart-series',
    title: heading,
    points: data.series,
    interval: data.window.interval,
    timeZone: data.window.timeZone,
  });
  const label = bucketLabelFormat(data.window.interval, data.window.timeZone);
  const rows = data.series
    .map((point) => `<tr><th scope="row">${escapeHtml(label.format(point.start))}</th><td>${point.scans}</td><td>${point.uniqueVisitors}</td></tr>`)
    .join('');
  return (
    `<section aria-labelledby="h-series"><h2 id="h-series">${escapeHtml(heading)}</h2><div class="chart">${chart}</div>` +
    `<details><summary>Table of the chart</summary><table><caption>${escapeHtml(heading)}</caption>` +
    `<thead><tr><th scope="col">${escapeHtml(capitalised(data.window.interval))}</th>` +
    '<th scope="col">Scans</th><th scope="col">Unique visitors</th></tr></thead>' +
    `<tbody>${rows}</tbody></table></details></section>`
  );
}

function breakdowns(data: StatsPageData): string {
  const parts = (Object.keys(BREAKDOWN_SECTIONS) as BreakdownSection[])
    .filter((section) => data.sections.has(section))
    .map((section) => breakdown(section, data.breakdowns[section] ?? []));
  return parts.length === 0 ? '' : `<div class="grid">${parts.join('')}</div>`;
}

function breakdown(section: BreakdownSection, rows: ReadonlyArray<{ value: string; scans: number }>): string {
  const heading = BREAKDOWN_SECTIONS[section];
  const chart = barChartSvg({ id: `chart-${section}`, title: heading, rows: rows.map((row) => ({ label: row.value, value: row.scans })) });
  const body = rows.map((row) => `<tr><th scope="row">${escapeHtml(row.value)}</th><td>${row.scans}</td></tr>`).join('');
  return (
    `<section aria-labelledby="h-${section}"><h2 id="h-${section}">${escapeHtml(heading)}</h2><div class="chart">${chart}</div>` +
    `<table class="numbers"><caption class="visually-hidden">${escapeHtml(heading)}</caption>` +
    `<thead><tr><th scope="col">${escapeHtml(heading)}</th><th scope="col">Scans</th></tr></thead>` +
    `<tbody>${body || '<tr><td colspan="2">No scans</td></tr>'}</tbody></table></section>`
  );
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
