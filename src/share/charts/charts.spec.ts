import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { barChartSvg } from './bar-chart';
import { shortCount, valueScale } from './chart-scale';
import { seriesChartSvg } from './series-chart';

const texts = (svg: string): string[] => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);

describe('valueScale', () => {
  it.each([
    [0, 1, [0, 1]],
    [1, 1, [0, 1]],
    [7, 8, [0, 2, 4, 6, 8]],
    [10, 10, [0, 5, 10]],
    [99, 100, [0, 50, 100]],
    [1234, 1500, [0, 500, 1000, 1500]],
    [987_654, 1_000_000, [0, 500_000, 1_000_000]],
  ])('largest %d → max %d, ticks %j', (largest, max, ticks) => {
    expect(valueScale(largest)).toEqual({ max, ticks });
  });
});

describe('shortCount', () => {
  it.each([
    [0, '0'],
    [9999, '9,999'],
    [10_000, '10k'],
    [12_345, '12.3k'],
    [2_500_000, '2.5M'],
  ])('%d → %s', (value, text) => expect(shortCount(value)).toBe(text));
});

describe('barChartSvg', () => {
  const svg = barChartSvg({
    id: 'countries',
    title: 'Top countries',
    rows: [
      { label: 'DE', value: 40 },
      { label: '<script>alert(1)</script>', value: 10 },
    ],
  });

  it('is well-formed SVG with a title and a description naming every row and its count', () => {
    expect(XMLValidator.validate(svg)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as { svg: { title: { '#text': string }; desc: { '#text': string } } };
    expect(parsed.svg.title['#text']).toBe('Top countries');
    expect(parsed.svg.desc['#text']).toContain('DE 40');
    expect(svg).toContain('role="img"');
  });

  it('escapes every label', () => {
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
  });

  it('draws bars in proportion: the largest row spans the bar space, a row of a quarter a quarter of it', () => {
    const widths = [...svg.matchAll(/<rect[^>]* width="([\d.]+)"/g)].map((match) => Number(match[1]));
    expect(widths).toHaveLength(2);
    expect(widths[1] / widths[0]).toBeCloseTo(0.25, 2);
  });

  it('says "No scans" when there are no rows', () => {
    const empty = barChartSvg({ id: 'os', title: 'Operating systems', rows: [] });
    expect(XMLValidator.validate(empty)).toBe(true);
    expect(texts(empty)).toEqual(['No scans']);
  });
});

describe('seriesChartSvg', () => {
  const day = (iso: string, scans: number, uniqueVisitors: number) => ({ start: new Date(iso), scans, uniqueVisitors });
  const points = [day('2026-03-28T23:00:00Z', 3, 2), day('2026-03-29T23:00:00Z', 12, 5), day('2026-03-30T22:00:00Z', 0, 0)];

  it('labels buckets by their local date in the window zone (Berlin: the 29th, 30th, 31st)', () => {
    const svg = seriesChartSvg({ id: 'series', title: 'Scans per day', points, interval: 'day', timeZone: 'Europe/Berlin' });
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(texts(svg)).toEqual(expect.arrayContaining(['Mar 29', 'Mar 30', 'Mar 31']));
  });

  it('anchors the first label at the left edge and the last at the right, so neither is cut off', () => {
    const svg = seriesChartSvg({ id: 'series', title: 'Scans per day', points, interval: 'day', timeZone: 'UTC' });
    const anchors = [...svg.matchAll(/<text [^>]*text-anchor="(\w+)"[^>]*>(Mar \d+)<\/text>/g)].map((match) => [match[2], match[1]]);
    expect(anchors).toEqual([
      ['Mar 28', 'start'],
      ['Mar 29', 'middle'],
      ['Mar 30', 'end'],
    ]);
  });

  it('describes the total and the peak for screen readers', () => {
    const svg = seriesChartSvg({ id: 'series', title: 'Scans per day', points, interval: 'day', timeZone: 'UTC' });
    expect(svg).toContain('15 scans over 3 days, most (12) in the day of Mar 29');
  });

  it('puts the peak on the top gridline when it is a nice number, and zero on the floor', () => {
    const svg = seriesChartSvg({ id: 's', title: 't', points, interval: 'day', timeZone: 'UTC', width: 640, height: 240 });
    const line = /<path d="(M[^"]+)" fill="none" stroke="#2f5fd0"/.exec(svg)?.[1] ?? '';
    const ys = [...line.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((match) => Number(match[1]));
    // 240 high, 28 top margin, 28 bottom margin: the floor at 212; 12 scans of a 15-tick axis (0, 5, 10, 15).
    expect(ys).toEqual([212 - (3 / 15) * 184, 212 - (12 / 15) * 184, 212].map((y) => Math.round(y * 10) / 10));
  });

  it('draws an empty frame with no line when the window has no buckets', () => {
    const svg = seriesChartSvg({ id: 's', title: 'Scans', points: [], interval: 'hour', timeZone: 'UTC' });
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain('<path');
  });

  it('names hours for hourly buckets and months for monthly ones', () => {
    const hourly = seriesChartSvg({ id: 'h', title: 't', points: [day('2026-01-01T05:00:00Z', 1, 1)], interval: 'hour', timeZone: 'Asia/Kolkata' });
    expect(texts(hourly)).toContain('Jan 1, 10:30');
    const monthly = seriesChartSvg({ id: 'm', title: 't', points: [day('2026-01-01T00:00:00Z', 1, 1)], interval: 'month', timeZone: 'UTC' });
    expect(texts(monthly)).toContain('Jan 2026');
  });
});
