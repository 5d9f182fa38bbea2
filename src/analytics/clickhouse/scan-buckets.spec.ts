import { bucketStart, bucketStarts } from './scan-buckets';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('bucketStart', () => {
  it.each([
    ['hour', '2026-11-22T15:45:10.500Z', '2026-11-22T15:00:00.000Z'],
    ['hour', '2026-11-22T15:00:00.000Z', '2026-11-22T15:00:00.000Z'],
    ['day', '2026-11-22T23:59:59.999Z', '2026-11-22T00:00:00.000Z'],
    ['day', '2028-02-29T12:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    // ISO weeks start on Monday: 2026-11-23 is a Monday, 2026-11-22 a Sunday.
    ['week', '2026-11-22T23:59:59.999Z', '2026-11-16T00:00:00.000Z'],
    ['week', '2026-11-23T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    ['week', '2027-01-01T10:00:00.000Z', '2026-12-28T00:00:00.000Z'],
    ['week', '1970-01-05T00:00:00.000Z', '1970-01-05T00:00:00.000Z'],
  ] as const)('%s of %s starts at %s', (interval, instant, start) => {
    expect(iso(bucketStart(interval, at(instant)))).toBe(start);
  });
});

describe('bucketStarts', () => {
  it('covers the window from the bucket of from to the bucket of the last instant before to', () => {
    const window = { from: new Date('2026-11-01T10:30:00Z'), to: new Date('2026-11-04T00:00:00Z'), interval: 'day' as const, timeZone: 'UTC' };
    expect(bucketStarts(window).map(iso)).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z']);
  });

  it('steps weeks from Monday across a year end', () => {
    const window = { from: new Date('2026-12-24T00:00:00Z'), to: new Date('2027-01-05T00:00:00.001Z'), interval: 'week' as const, timeZone: 'UTC' };
    expect(bucketStarts(window).map(iso)).toEqual(['2026-12-21T00:00:00.000Z', '2026-12-28T00:00:00.000Z', '2027-01-04T00:00:00.000Z']);
  });

  it('gives 744 hours for 31 days', () => {
    const window = { from: new Date('2026-10-01T00:00:00Z'), to: new Date('2026-11-01T00:00:00Z'), interval: 'hour' as const, timeZone: 'UTC' };
    expect(bucketStarts(window)).toHaveLength(744);
  });
});
