import { formatICalendarUtc, parseIsoDateTime } from './iso-date-time';

describe('parseIsoDateTime', () => {
  test.each([
    ['2025-06-01T18:00:00Z', '2025-06-01T18:00:00.000Z'],
    ['2025-06-01t18:00:00z', '2025-06-01T18:00:00.000Z'],
    ['2025-06-01T18:00Z', '2025-06-01T18:00:00.000Z'],
    ['2025-06-01T18:00:00', '2025-06-01T18:00:00.000Z'],
    ['2025-06-01T20:00:00+02:00', '2025-06-01T18:00:00.000Z'],
    ['2025-06-01T20:00:00+02', '2025-06-01T18:00:00.000Z'],
    ['2025-06-01T13:00:00-0500', '2025-06-01T18:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['2025-06-01T18:00:00.123456789Z', '2025-06-01T18:00:00.000Z'],
  ])('%s is %s', (value, expected) => {
    expect(new Date(parseIsoDateTime(value) as number).toISOString()).toBe(expected);
  });

  test.each([
    '2025-06-01',
    '2025-06-01 18:00:00Z',
    '20250601T180000Z',
    '2025-02-30T10:00:00Z',
    '2023-02-29T10:00:00Z',
    '1900-02-29T10:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-00-01T00:00:00Z',
    '2025-06-00T00:00:00Z',
    '2025-06-01T24:00:00Z',
    '2025-06-01T12:60:00Z',
    '2025-06-01T12:00:60Z',
    '2025-06-01T12:00:00+24:00',
    '2025-06-01T12:00:00+02:60',
    '2025-06-01T12:00:00 Z',
    'tomorrow',
    '',
  ])('%j is not a date-time', (value) => {
    expect(parseIsoDateTime(value)).toBeNull();
  });

  test('years below 100 are taken as written', () => {
    expect(formatICalendarUtc(parseIsoDateTime('0050-03-01T00:00:00Z') as number)).toBe('00500301T000000Z');
  });
});

describe('formatICalendarUtc', () => {
  test.each([
    [Date.UTC(2025, 0, 2, 3, 4, 5), '20250102T030405Z'],
    [Date.UTC(1999, 11, 31, 23, 59, 59, 999), '19991231T235959Z'],
  ])('%p → %s', (epochMilliseconds, expected) => {
    expect(formatICalendarUtc(epochMilliseconds)).toBe(expected);
  });
});
