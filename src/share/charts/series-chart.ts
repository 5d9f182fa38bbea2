import { element, emptyElement, roundTo } from '../../rendering/svg-markup';
import { CHART_COLOURS, chartSvg, svgText } from './chart-frame';
import { shortCount, valueScale } from './chart-scale';

export type SeriesInterval = 'hour' | 'day' | 'week' | 'month';

export interface SeriesPoint {
  start: Date;
  scans: number;
  uniqueVisitors: number;
}

export interface SeriesChartInput {
  id: string;
  title: string;
  points: readonly SeriesPoint[];
  interval: SeriesInterval;
  /** The IANA zone the buckets were cut in: labels name their local dates. */
  timeZone: string;
  width?: number;
  height?: number;
}

const MARGIN = { top: 28, right: 12, bottom: 28, left: 48 };
const MAX_X_LABELS = 6;

/** Scans (a line over a shaded area) and unique visitors (a dashed line) per bucket, with a legend. */
export function seriesChartSvg(input: SeriesChartInput): string {
  const width = input.width ?? 640;
  const height = input.height ?? 240;
  const plot = { x: MARGIN.left, y: MARGIN.top, width: width - MARGIN.left - MARGIN.right, height: height - MARGIN.top - MARGIN.bottom };
  const scale = valueScale(Math.max(0, ...input.points.map((point) => point.scans)));
  const xOf = (index: number) => plot.x + (input.points.length <= 1 ? plot.width / 2 : (index / (input.points.length - 1)) * plot.width);
  const yOf = (value: number) => plot.y + plot.height - (value / scale.max) * plot.height;
  const scans = input.points.map((point, index) => [xOf(index), yOf(point.scans)] as const);
  const visitors = input.points.map((point, index) => [xOf(index), yOf(point.uniqueVisitors)] as const);
  const body =
    valueGrid(scale.ticks, plot, yOf) + timeLabels(input, plot, xOf) + (scans.length === 0 ? '' : areaAndLines(scans, visitors, plot)) + legend();
  return chartSvg({ id: input.id, width, height, title: input.title, description: seriesDescription(input) }, body);
}

type Plot = { x: number; y: number; width: number; height: number };
type Point = readonly [number, number];

function valueGrid(ticks: number[], plot: Plot, yOf: (value: number) => number): string {
  return ticks
    .map((tick) => {
      const y = roundTo(yOf(tick), 1);
      return (
        emptyElement('line', [
          ['x1', plot.x],
          ['x2', plot.x + plot.width],
          ['y1', y],
          ['y2', y],
          ['stroke', CHART_COLOURS.grid],
          ['stroke-opacity', 0.35],
        ]) +
        element(
          'text',
          [
            ['x', plot.x - 6],
            ['y', y + 4],
            ['text-anchor', 'end'],
            ['fill', CHART_COLOURS.text],
          ],
          svgText(shortCount(tick)),
        )
      );
    })
    .join('');
}

function timeLabels(input: SeriesChartInput, plot: Plot, xOf: (index: number) => number): string {
  const count = input.points.length;
  if (count === 0) return '';
  const every = Math.max(1, Math.ceil(count / MAX_X_LABELS));
  const format = bucketLabelFormat(input.interval, input.timeZone);
  let labels = '';
  for (let index = 0; index < count; index += every) {
    // The first and last labels sit at the plot's edges: anchored inward, not cut off.
    const anchor = count === 1 ? 'middle' : index === 0 ? 'start' : index === count - 1 ? 'end' : 'middle';
    labels += element(
      'text',
      [
        ['x', roundTo(xOf(index), 1)],
        ['y', plot.y + plot.height + 18],
        ['text-anchor', anchor],
        ['fill', CHART_COLOURS.text],
      ],
      svgText(format.format(input.points[index].start)),
    );
  }
  return labels;
}

function areaAndLines(scans: readonly Point[], visitors: readonly Point[], plot: Plot): string {
  const line = (points: readonly Point[]) => points.map(([x, y], index) => `${index === 0 ? 'M' : 'L'}${roundTo(x, 1)} ${roundTo(y, 1)}`).join('');
  const floor = roundTo(plot.y + plot.height, 1);
  const area = `${line(scans)}L${roundTo(scans[scans.length - 1][0], 1)} ${floor}L${roundTo(scans[0][0], 1)} ${floor}Z`;
  return (
    emptyElement('path', [
      ['d', area],
      ['fill', CHART_COLOURS.primary],
      ['fill-opacity', 0.15],
    ]) +
    emptyElement('path', [
      ['d', line(scans)],
      ['fill', 'none'],
      ['stroke', CHART_COLOURS.primary],
      ['stroke-width', 2],
    ]) +
    emptyElement('path', [
      ['d', line(visitors)],
      ['fill', 'none'],
      ['stroke', CHART_COLOURS.secondary],
      ['stroke-width', 2],
      ['stroke-dasharray', '5 3'],
    ])
  );
}

function legend(): string {
  const key = (x: number, colour: string, dash: string | undefined, label: string) =>
    emptyElement('line', [
      ['x1', x],
      ['x2', x + 18],
      ['y1', 12],
      ['y2', 12],
      ['stroke', colour],
      ['stroke-width', 2],
      ['stroke-dasharray', dash],
    ]) +
    element(
      'text',
      [
        ['x', x + 24],
        ['y', 16],
        ['fill', CHART_COLOURS.text],
      ],
      label,
    );
  return key(MARGIN.left, CHART_COLOURS.primary, undefined, 'Scans') + key(MARGIN.left + 80, CHART_COLOURS.secondary, '5 3', 'Unique visitors');
}

function seriesDescription(input: SeriesChartInput): string {
  const total = input.points.reduce((sum, point) => sum + point.scans, 0);
  if (input.points.length === 0) return `${input.title}: no buckets in this period.`;
  const peak = input.points.reduce((best, point) => (point.scans > best.scans ? point : best));
  const format = bucketLabelFormat(input.interval, input.timeZone);
  return (
    `${input.title}: ${total} scans over ${input.points.length} ${input.interval === 'day' ? 'days' : `${input.interval}s`}` +
    (total === 0 ? '.' : `, most (${peak.scans}) in the ${input.interval} of ${format.format(peak.start)}.`)
  );
}

const LABEL_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** How a bucket's start is named in the chart: local date (and hour for hourly buckets) in the window's zone. */
export function bucketLabelFormat(interval: SeriesInterval, timeZone: string): Intl.DateTimeFormat {
  const key = `${interval}|${timeZone}`;
  let format = LABEL_FORMATS.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      interval === 'hour'
        ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }
        : interval === 'month'
          ? { month: 'short', year: 'numeric' }
          : { month: 'short', day: 'numeric' };
    format = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    LABEL_FORMATS.set(key, format);
  }
  return format;
}
