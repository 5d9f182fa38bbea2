import { parseStatsQuery } from './stats-query';

describe('parseStatsQuery', () => {
  it.each([
    [{}, { days: 30, interval: 'day', timeZone: 'UTC' }],
    [
      { days: '7', interval: 'hour', tz: 'Asia/Kolkata' },
      { days: 7, interval: 'hour', timeZone: 'Asia/Kolkata' },
    ],
    [
      { days: '365', interval: 'month' },
      { days: 365, interval: 'month', timeZone: 'UTC' },
    ],
  ])('%j → %j', (raw, query) => {
    expect(parseStatsQuery(raw)).toEqual({ ok: true, query });
  });

  it.each([
    [{ days: '31' }, 'days'],
    [{ days: '365', interval: 'hour' }, 'interval'],
    [{ days: '7', interval: 'month' }, 'interval'],
    [{ tz: 'Mars/Olympus' }, 'tz'],
    [{ tz: ['UTC', 'UTC'] }, 'tz'],
    [{ from: '2026-01-01T00:00:00Z' }, 'from'],
  ])('%j is refused, naming %s', (raw, field) => {
    const check = parseStatsQuery(raw);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.errors.map((error) => error.field)).toContain(field);
  });
});
