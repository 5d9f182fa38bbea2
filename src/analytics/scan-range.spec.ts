import { parseQueryInstant, resolveScanWindow } from './scan-range';

const iso = (text: string) => parseQueryInstant(text)?.toISOString() ?? null;

describe('parseQueryInstant', () => {
  it('reads UTC, offsets and missing offsets (UTC) to the millisecond', () => {
    expect(iso('2026-11-01T00:00:00Z')).toBe('2026-11-01T00:00:00.000Z');
    expect(iso('2026-11-01t10:20z')).toBe('2026-11-01T10:20:00.000Z');
    expect(iso('2026-11-01T10:20:30.1234567Z')).toBe('2026-11-01T10:20:30.123Z');
    expect(iso('2026-11-01T01:00:00+01:00')).toBe('2026-11-01T00:00:00.000Z');
    expect(iso('2026-11-01T00:00:00-0530')).toBe('2026-11-01T05:30:00.000Z');
    expect(iso('2026-11-01T12:00:00')).toBe('2026-11-01T12:00:00.000Z');
  });

  it('reads a space before the offset as + (an unencoded + in a query string)', () => {
    expect(iso('2026-11-01T01:00:00 01:00')).toBe('2026-11-01T00:00:00.000Z');
  });

  it('accepts Feb 29 only in leap years', () => {
    expect(iso('2028-02-29T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(iso('2026-02-29T00:00:00Z')).toBeNull();
  });

  it.each([
    '',
    'now',
    '2026-11-01',
    '2026-11-01T10',
    '20261101T000000Z',
    '2026-13-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-11-31T00:00:00Z',
    '2026-11-01T24:00:00Z',
    '2026-11-01T10:60:00Z',
    '2026-11-01T10:00:60Z',
    '2026-11-01T00:00:00+24:00',
    '2026-11-01T00:00:00+01:60',
    ' 2026-11-01T00:00:00Z',
    '2026-11-01T00:00:00Z ',
    '1700000000000',
    '1969-12-31T23:59:59Z',
    '0000-01-01T00:00:00Z',
  ])('refuses %j', (text) => {
    expect(parseQueryInstant(text)).toBeNull();
  });
});

describe('resolveScanWindow', () => {
  const now = new Date('2026-11-22T15:45:10.500Z');
  const day = 86_400_000;

  it('defaults to the 30 days before now, by day', () => {
    const check = resolveScanWindow({ interval: 'day' }, now);
    expect(check).toEqual({ ok: true, window: { from: new Date(now.getTime() - 30 * day), to: now, interval: 'day', timeZone: 'UTC' } });
  });

  it('takes from 30 days before a given to, and to = now for a given from', () => {
    expect(resolveScanWindow({ to: '2026-03-31T00:00:00Z', interval: 'week' }, now)).toEqual({
      ok: true,
      window: { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-31T00:00:00Z'), interval: 'week', timeZone: 'UTC' },
    });
    expect(resolveScanWindow({ from: '2026-11-20T00:00:00Z', interval: 'hour' }, now)).toEqual({
      ok: true,
      window: { from: new Date('2026-11-20T00:00:00Z'), to: now, interval: 'hour', timeZone: 'UTC' },
    });
  });

  it('names each unparsable parameter', () => {
    const check = resolveScanWindow({ from: 'yesterday', to: '2026-02-30T00:00:00Z', interval: 'day' }, now);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.errors.map((error) => error.field)).toEqual(['from', 'to']);
  });

  it('requires from before to (equal is refused), naming from', () => {
    for (const from of ['2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z']) {
      const check = resolveScanWindow({ from, to: '2026-11-01T00:00:00Z', interval: 'day' }, now);
      expect(check).toEqual({ ok: false, errors: [{ field: 'from', message: 'from must be earlier than to' }] });
    }
    const future = resolveScanWindow({ from: '2026-12-01T00:00:00Z', interval: 'day' }, now);
    expect(!future.ok && future.errors[0].message).toContain('now, 2026-11-22T15:45:10.500Z');
  });

  it.each([
    ['hour', 31],
    ['day', 366],
    ['week', 366],
    ['month', 731],
  ] as const)('interval=%s allows at most %s days', (interval, days) => {
    const to = new Date('2026-11-01T00:00:00Z');
    const at = (ms: number) => resolveScanWindow({ from: new Date(to.getTime() - ms).toISOString(), to: to.toISOString(), interval }, now);
    expect(at(days * day).ok).toBe(true);
    const over = at(days * day + 1);
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.errors).toEqual([{ field: 'from', message: `from..to may span at most ${days} days with interval=${interval}` }]);
  });

  it('takes an IANA zone and names tz when it is not one', () => {
    const berlin = resolveScanWindow({ interval: 'day', tz: 'Europe/Berlin' }, now);
    expect(berlin.ok && berlin.window.timeZone).toBe('Europe/Berlin');
    const mars = resolveScanWindow({ interval: 'day', tz: 'Mars/Olympus' }, now);
    expect(!mars.ok && mars.errors.map((error) => error.field)).toEqual(['tz']);
  });

  it('keeps the default window within the hour limit', () => {
    expect(resolveScanWindow({ interval: 'hour' }, now).ok).toBe(true);
  });
});
