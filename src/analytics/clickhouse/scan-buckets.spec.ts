import { SCAN_INTERVALS, type ScanWindow } from '../scan-range';
import { planScanWindow } from '../scan-window-plan';
import { bucketCells, bucketIndexOf, bucketIndexSql, ClickHouseDeclined } from './scan-buckets';

const DAY = 86_400_000;
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'Pacific/Apia'];
const SPAN_DAYS = { hour: 31, day: 366, week: 366, month: 731 } as const;

/** A deterministic pseudo-random sequence, so a failure can be replayed. */
function sequence(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The bucket of `ms` by definition: the last start at or before it. */
function lastStartAtOrBefore(starts: number[], ms: number): number {
  let index = 0;
  while (index + 1 < starts.length && starts[index + 1] <= ms) index++;
  return index;
}

describe('bucketCells', () => {
  it.each(ZONES)('puts every instant of random windows in %s into the bucket planScanWindow starts it in', (timeZone) => {
    const random = sequence(timeZone.length * 7919);
    for (let round = 0; round < 40; round++) {
      const interval = SCAN_INTERVALS[round % SCAN_INTERVALS.length];
      // 2010..2030: DST changes of both hemispheres, Samoa's skipped day (2011-12-30), Lord Howe's half hours.
      const from = Date.UTC(2010, 0, 1) + Math.floor(random() * 20 * 365 * DAY);
      const to = from + 1 + Math.floor(random() * SPAN_DAYS[interval] * DAY);
      const window: ScanWindow = { from: new Date(from), to: new Date(to), interval, timeZone };
      const starts = planScanWindow(window).starts.map((start) => start.getTime());
      const cells = bucketCells(starts, to);
      const instants = [from, to - 1, ...starts.flatMap((start) => [start - 1, start, start + 1])];
      for (let i = 0; i < 200; i++) instants.push(from + Math.floor(random() * (to - from)));
      for (const ms of instants.filter((at) => at >= from && at < to))
        expect([window.from.toISOString(), interval, ms, bucketIndexOf(cells, ms)]).toEqual([
          window.from.toISOString(),
          interval,
          ms,
          lastStartAtOrBefore(starts, ms),
        ]);
    }
  });

  it('divides evenly spaced starts, and looks uneven ones up in cells no longer than the shortest bucket', () => {
    const utcDays = bucketCells([0, DAY, 2 * DAY], 3 * DAY);
    expect(utcDays).toEqual({ even: true, first: 0, step: DAY });
    expect(bucketIndexSql(utcDays, 'scanned_at_ms')).toBe(`intDiv((toInt64(scanned_at_ms) - 0), ${DAY})`);

    // Berlin's days around the change to summer time (2026-03-29 has 23 hours).
    const window: ScanWindow = {
      from: new Date('2026-03-28T00:00:00Z'),
      to: new Date('2026-03-31T00:00:00Z'),
      interval: 'day',
      timeZone: 'Europe/Berlin',
    };
    const starts = planScanWindow(window).starts.map((start) => start.getTime());
    expect(starts.map((start) => new Date(start).toISOString())).toEqual([
      '2026-03-27T23:00:00.000Z',
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
      '2026-03-30T22:00:00.000Z',
    ]);
    const cells = bucketCells(starts, window.to.getTime());
    // 23-hour cells from the first start: the second begins before the second bucket does.
    expect(cells).toMatchObject({ even: false, cell: 23 * 3_600_000, firstBuckets: [0, 0, 1, 2] });
    expect(bucketIndexSql(cells, 'ms')).toMatch(
      /^toInt64\(arrayElement\(\[0,0,1,2\], toUInt64\(intDiv\(\(toInt64\(ms\) - \d+\), 82800000\)\) \+ 1\) \+ /,
    );
    expect(bucketIndexOf(cells, Date.parse('2026-03-29T21:59:59.999Z'))).toBe(1);
    expect(bucketIndexOf(cells, Date.parse('2026-03-29T22:00:00.000Z'))).toBe(2);
  });

  it('gives one bucket index 0 and refuses starts out of order or too uneven for its cells', () => {
    expect(bucketIndexSql(bucketCells([5000], 9000), 'ms')).toBe('intDiv((toInt64(ms) - 5000), 4000)');
    expect(() => bucketCells([0, 10, 10], 100)).toThrow('out of order');
    expect(() => bucketCells([0, 1, 10 * DAY], 20 * DAY)).toThrow(ClickHouseDeclined);
    expect(() => bucketCells([0, 0.5], 1)).toThrow('not a bucket start');
  });
});
