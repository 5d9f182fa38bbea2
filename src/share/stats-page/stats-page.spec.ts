import { load } from 'cheerio';
import { statsPageHtml, type StatsPageData } from './stats-page';
import { STATS_SECTIONS } from './stats-sections';

const data = (overrides: Partial<StatsPageData> = {}): StatsPageData => ({
  name: 'Spring <b>menu</b>',
  kind: 'QR code',
  imageSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  window: { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-03T00:00:00Z'), interval: 'day', timeZone: 'UTC', days: 30 },
  totals: { scans: 1234, uniqueVisitors: 321 },
  series: [
    { start: new Date('2026-03-01T00:00:00Z'), scans: 1000, uniqueVisitors: 300 },
    { start: new Date('2026-03-02T00:00:00Z'), scans: 234, uniqueVisitors: 21 },
  ],
  breakdowns: {
    countries: [
      { value: 'DE', scans: 1200 },
      { value: 'unknown', scans: 34 },
    ],
    devices: [{ value: 'mobile', scans: 1234 }],
  },
  sections: new Set(STATS_SECTIONS),
  pagePath: '/s/token',
  jsonPath: '/s/token.json',
  ...overrides,
});

describe('statsPageHtml', () => {
  const $ = load(statsPageHtml(data()));

  it('names the shared code, escaped, in the title and the heading', () => {
    expect($('h1').text()).toBe('Spring <b>menu</b>');
    expect($('head > title').text()).toBe('Spring <b>menu</b> · statistics');
    expect($('h1 b')).toHaveLength(0);
  });

  it('shows the totals and the series table with the same numbers as the data', () => {
    expect(
      $('.tile .number')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['1,234', '321']);
    const rows = $('details table tbody tr')
      .map((_, row) => [
        $(row)
          .find('th, td')
          .map((__, cell) => $(cell).text())
          .get(),
      ])
      .get();
    expect(rows).toEqual([
      ['Mar 1', '1000', '300'],
      ['Mar 2', '234', '21'],
    ]);
  });

  it('draws every breakdown as a chart with a title and an accessible table beside it', () => {
    const countries = $('section[aria-labelledby="h-countries"]');
    expect(countries.find('svg[role="img"] title').text()).toBe('Top countries');
    expect(
      countries
        .find('tbody tr th')
        .map((_, el) => $(el).text())
        .get(),
    ).toEqual(['DE', 'unknown']);
    expect($('section[aria-labelledby="h-os"] tbody').text()).toBe('No scans');
  });

  it('offers the range, interval and zone as a form that works without scripts', () => {
    const form = $('form.controls');
    expect(form.attr('method')).toBe('get');
    expect(form.attr('action')).toBe('/s/token');
    expect(form.find('select[name="days"] option[selected]').attr('value')).toBe('30');
    expect(form.find('select[name="interval"] option[selected]').attr('value')).toBe('day');
    expect(form.find('input[name="tz"]').attr('value')).toBe('UTC');
  });

  it('leaves out the sections the owner did not share', () => {
    const page = load(statsPageHtml(data({ sections: new Set(['series']) })));
    expect(page('.tiles')).toHaveLength(0);
    expect(page('section[aria-labelledby="h-countries"]')).toHaveLength(0);
    expect(page('section[aria-labelledby="h-series"]')).toHaveLength(1);
  });

  it('carries no visitor hash or raw row: only names and counts', () => {
    expect(statsPageHtml(data())).not.toMatch(/[0-9a-f]{32}/);
  });
});
