/** The parts of a stats page an owner can choose to share (`fields` of a share link); all by default. */
export const STATS_SECTIONS = ['totals', 'series', 'countries', 'devices', 'os', 'browsers', 'referrers'] as const;
export type StatsSection = (typeof STATS_SECTIONS)[number];

/** The breakdown sections, each with its heading and the analytics list it draws. */
export const BREAKDOWN_SECTIONS = {
  countries: 'Top countries',
  devices: 'Devices',
  os: 'Operating systems',
  browsers: 'Browsers',
  referrers: 'Referrers',
} as const satisfies Partial<Record<StatsSection, string>>;
export type BreakdownSection = keyof typeof BREAKDOWN_SECTIONS;

/** The ranges the page offers, in days back from now. */
export const STATS_RANGES = [7, 30, 90, 365] as const;
export type StatsRange = (typeof STATS_RANGES)[number];
export const DEFAULT_STATS_RANGE: StatsRange = 30;

/** Intervals a range may be cut into: hours only up to a month (the analytics' limit is 31 days). */
export function intervalsFor(days: StatsRange): Array<'hour' | 'day' | 'week' | 'month'> {
  return days <= 30 ? ['hour', 'day', 'week'] : ['day', 'week', 'month'];
}
