import { isKnownTimeZone, minutesOf, wallClockAt } from './zoned-clock';

describe('isKnownTimeZone', () => {
  test.each<[unknown, boolean]>([
    ['UTC', true],
    ['Europe/Berlin', true],
    ['America/New_York', true],
    ['Asia/Kolkata', true],
    ['Etc/GMT-14', true],
    ['Mars/Olympus_Mons', false],
    ['+01:00', false],
    ['GMT+1', false],
    ['', false],
    [`Europe/${'x'.repeat(60)}`, false],
    [42, false],
  ])('%p: %p', (zone, known) => {
    expect(isKnownTimeZone(zone as string)).toBe(known);
  });
});

describe('wallClockAt', () => {
  test.each<[string, string, string, number]>([
    ['2027-01-04T00:00:00Z', 'UTC', 'mon', 0],
    ['2027-01-04T23:59:59Z', 'UTC', 'mon', 23 * 60 + 59],
    ['2027-01-04T00:00:00Z', 'America/New_York', 'sun', 19 * 60],
    ['2027-01-03T23:30:00Z', 'Asia/Kolkata', 'mon', 5 * 60],
    ['2027-01-04T00:00:00Z', 'Pacific/Kiritimati', 'mon', 14 * 60],
    // Berlin: CET until 2027-03-28T01:00Z, CEST until 2027-10-31T01:00Z
    ['2027-03-28T00:59:00Z', 'Europe/Berlin', 'sun', 60 + 59],
    ['2027-03-28T01:00:00Z', 'Europe/Berlin', 'sun', 3 * 60],
    ['2027-10-31T00:30:00Z', 'Europe/Berlin', 'sun', 2 * 60 + 30],
    ['2027-10-31T01:30:00Z', 'Europe/Berlin', 'sun', 2 * 60 + 30],
    ['2027-10-31T23:00:00Z', 'Europe/Berlin', 'mon', 0],
    // New York: EST until 2027-03-14T07:00Z, EDT until 2027-11-07T06:00Z
    ['2027-03-14T06:59:00Z', 'America/New_York', 'sun', 60 + 59],
    ['2027-03-14T07:00:00Z', 'America/New_York', 'sun', 3 * 60],
    ['2027-11-07T05:30:00Z', 'America/New_York', 'sun', 60 + 30],
    ['2027-11-07T06:30:00Z', 'America/New_York', 'sun', 60 + 30],
  ])('%s in %s: %s, minute %p', (at, zone, weekday, minutes) => {
    expect(wallClockAt(Date.parse(at), zone)).toEqual({ weekday, minutes });
  });

  test('every weekday of a week, midnight as minute 0 (never 24:00)', () => {
    const days = Array.from({ length: 7 }, (_, day) => wallClockAt(Date.parse('2027-01-04T00:00:00Z') + day * 86_400_000, 'UTC'));
    expect(days).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((weekday) => ({ weekday, minutes: 0 })));
  });
});

describe('minutesOf', () => {
  test.each<[string, number | null]>([
    ['00:00', 0],
    ['09:30', 570],
    ['23:59', 1439],
    ['24:00', 1440],
    ['24:01', null],
    ['25:00', null],
    ['9:30', null],
    ['09:60', null],
    ['09:30:00', null],
    ['0930', null],
    [' 09:30', null],
    ['', null],
  ])('%p: %p', (text, minutes) => {
    expect(minutesOf(text)).toBe(minutes);
  });
});
