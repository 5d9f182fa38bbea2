import { isTimeZone, type ScanInterval, type ScanWindow } from './scan-range';
import { planScanWindow, widenToWholeDays } from './scan-window-plan';

const DAY = 86_400_000;
const window = (from: string, to: string, interval: ScanInterval, timeZone = 'UTC'): ScanWindow => ({
  from: new Date(from),
  to: new Date(to),
  interval,
  timeZone,
});
const starts = (w: ScanWindow) => planScanWindow(w).starts.map((start) => start.toISOString());

describe('isTimeZone', () => {
  it.each([
    ['UTC', true],
    ['Europe/Berlin', true],
    ['America/Argentina/Buenos_Aires', true],
    ['Asia/Kolkata', true],
    ['Mars/Olympus', false],
    ['', false],
    ['+02:00', false],
    ['x'.repeat(65), false],
  ])('%s → %s', (name, known) => expect(isTimeZone(name)).toBe(known));
});

describe('planScanWindow: bucket starts', () => {
  it.each([
    [
      'UTC days',
      window('2026-11-01T10:30:00Z', '2026-11-04T00:00:00Z', 'day'),
      ['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z'],
    ],
    [
      'UTC ISO weeks across a year end',
      window('2026-12-24T00:00:00Z', '2027-01-05T00:00:00.001Z', 'week'),
      ['2026-12-21T00:00:00.000Z', '2026-12-28T00:00:00.000Z', '2027-01-04T00:00:00.000Z'],
    ],
    [
      'UTC months of unequal length',
      window('2027-01-31T00:00:00Z', '2027-03-01T00:00:00Z', 'month'),
      ['2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
    ],
    [
      'Berlin days across the spring DST change (23-hour day)',
      window('2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z', 'day', 'Europe/Berlin'),
      ['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
    ],
    [
      'Berlin months',
      window('2026-10-15T00:00:00Z', '2026-12-15T00:00:00Z', 'month', 'Europe/Berlin'),
      ['2026-09-30T22:00:00.000Z', '2026-10-31T23:00:00.000Z', '2026-11-30T23:00:00.000Z'],
    ],
    [
      'Kolkata (+05:30) days',
      window('2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z', 'day', 'Asia/Kolkata'),
      ['2026-10-31T18:30:00.000Z', '2026-11-01T18:30:00.000Z'],
    ],
    [
      'Kolkata hours start at half past UTC hours',
      window('2026-11-01T00:10:00Z', '2026-11-01T01:40:00Z', 'hour', 'Asia/Kolkata'),
      ['2026-10-31T23:30:00.000Z', '2026-11-01T00:30:00.000Z', '2026-11-01T01:30:00.000Z'],
    ],
    [
      'New York weeks start Monday local midnight',
      window('2026-11-04T00:00:00Z', '2026-11-10T00:00:00Z', 'week', 'America/New_York'),
      ['2026-11-02T05:00:00.000Z', '2026-11-09T05:00:00.000Z'],
    ],
    [
      'Havana skips midnight in spring: the day starts when the gap ends',
      window('2026-03-08T12:00:00Z', '2026-03-09T12:00:00Z', 'day', 'America/Havana'),
      ['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z'],
    ],
  ])('%s', (_name, w, expected) => expect(starts(w)).toEqual(expected));

  it('gives 744 hours for 31 days and 53 ISO weeks for 366 days', () => {
    expect(starts(window('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z', 'hour'))).toHaveLength(744);
    expect(starts(window('2026-01-01T00:00:00Z', '2027-01-02T00:00:00Z', 'week'))).toHaveLength(53);
  });
});

describe('planScanWindow: rolled days and raw ranges', () => {
  it('reads whole UTC days from the rollups and only the edges raw in UTC', () => {
    const plan = planScanWindow(window('2026-11-01T10:30:00Z', '2026-11-04T06:00:00Z', 'day'));
    expect(plan.days).toEqual([
      { day: '2026-11-02', bucket: 1 },
      { day: '2026-11-03', bucket: 2 },
    ]);
    expect(plan.raw.map((r) => [r.from.toISOString(), r.to.toISOString(), r.bucket])).toEqual([
      ['2026-11-01T10:30:00.000Z', '2026-11-02T00:00:00.000Z', 0],
      ['2026-11-04T00:00:00.000Z', '2026-11-04T06:00:00.000Z', 3],
    ]);
  });

  it('reads no day whole when the zone cuts every UTC day', () => {
    const plan = planScanWindow(window('2026-11-01T00:00:00Z', '2026-11-10T00:00:00Z', 'day', 'Europe/Berlin'));
    expect(plan.days).toEqual([]);
    expect(plan.raw).toHaveLength(10);
  });

  it('keeps whole UTC days inside local weeks and months', () => {
    const plan = planScanWindow(window('2026-11-02T00:00:00Z', '2026-11-16T00:00:00Z', 'week', 'Europe/Berlin'));
    // Each local week (Mon 23:00 UTC to Mon 23:00 UTC) holds six whole UTC days; its edges are raw.
    expect(plan.days.filter((day) => day.bucket === 1)).toHaveLength(6);
  });

  it.each<[string, ScanWindow]>([
    ['UTC day', window('2026-01-01T03:04:05.678Z', '2026-03-01T00:00:00Z', 'day')],
    ['UTC hour', window('2026-01-01T03:04:05.678Z', '2026-01-05T07:00:00.001Z', 'hour')],
    ['Berlin week', window('2026-03-20T03:04:05.678Z', '2026-05-01T00:00:00Z', 'week', 'Europe/Berlin')],
    ['Chatham month', window('2025-12-20T00:00:00Z', '2026-05-07T13:00:00Z', 'month', 'Pacific/Chatham')],
    ['Lord Howe day (30-minute DST)', window('2026-03-30T00:00:00Z', '2026-04-10T00:00:00Z', 'day', 'Australia/Lord_Howe')],
  ])('%s: days and ranges cover the window exactly once, each in the bucket holding it', (_name, w) => {
    const plan = planScanWindow(w);
    const pieces = [
      ...plan.days.map((d) => ({ from: Date.parse(`${d.day}T00:00:00Z`), to: Date.parse(`${d.day}T00:00:00Z`) + DAY, bucket: d.bucket })),
      ...plan.raw.map((r) => ({ from: r.from.getTime(), to: r.to.getTime(), bucket: r.bucket })),
    ].sort((x, y) => x.from - y.from);
    expect(pieces[0].from).toBe(w.from.getTime());
    expect(pieces.at(-1)!.to).toBe(w.to.getTime());
    for (let i = 1; i < pieces.length; i++) expect(pieces[i].from).toBe(pieces[i - 1].to);
    const bounds = [...plan.starts.map((s) => s.getTime()), Infinity];
    for (const piece of pieces) {
      expect(piece.from).toBeGreaterThanOrEqual(bounds[piece.bucket]);
      expect(piece.to).toBeLessThanOrEqual(bounds[piece.bucket + 1]);
    }
    for (let i = 1; i < plan.starts.length; i++) expect(plan.starts[i].getTime()).toBeGreaterThan(plan.starts[i - 1].getTime());
  });
});

describe('widenToWholeDays', () => {
  const widened = (w: ScanWindow) => {
    const { from, to } = widenToWholeDays(w);
    return [from.toISOString(), to.toISOString()];
  };
  it.each<[string, ScanWindow, string[]]>([
    [
      'UTC: out to midnights',
      window('2026-11-01T10:30:00Z', '2026-11-04T06:00:00Z', 'day'),
      ['2026-11-01T00:00:00.000Z', '2026-11-05T00:00:00.000Z'],
    ],
    [
      'UTC: already whole days stay',
      window('2026-11-01T00:00:00Z', '2026-11-04T00:00:00Z', 'week'),
      ['2026-11-01T00:00:00.000Z', '2026-11-04T00:00:00.000Z'],
    ],
    [
      'Berlin: local midnights',
      window('2026-11-01T10:30:00Z', '2026-11-03T23:30:00Z', 'month', 'Europe/Berlin'),
      ['2026-10-31T23:00:00.000Z', '2026-11-04T23:00:00.000Z'],
    ],
    [
      'hour: whole hours',
      window('2026-11-01T10:30:00Z', '2026-11-01T12:00:00.001Z', 'hour'),
      ['2026-11-01T10:00:00.000Z', '2026-11-01T13:00:00.000Z'],
    ],
  ])('%s', (_name, w, expected) => expect(widened(w)).toEqual(expected));

  it('reads no raw scan in UTC once widened', () => {
    expect(planScanWindow(widenToWholeDays(window('2026-01-01T10:30:00Z', '2026-12-01T06:00:00Z', 'day'))).raw).toEqual([]);
  });
});
