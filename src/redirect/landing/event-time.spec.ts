import { eventTimes } from './event-time';

describe('eventTimes', () => {
  it.each([
    [
      'with an offset: in that offset, named',
      '2030-06-01T18:00:00+02:00',
      '2030-06-01T21:00:00+02:00',
      ['Saturday 1 June 2030', '18:00 – 21:00'],
      'UTC+02:00',
      '1',
      'Jun',
    ],
    ['without an offset: UTC, named', '2030-03-14T09:30:00', undefined, ['Thursday 14 March 2030', '09:30'], 'UTC', '14', 'Mar'],
    ['Z', '2030-03-14T09:30Z', undefined, ['Thursday 14 March 2030', '09:30'], 'UTC', '14', 'Mar'],
    [
      'a negative offset crossing midnight in UTC',
      '2030-12-31T23:30:00-05:00',
      '2031-01-01T01:00:00-05:00',
      ['Tuesday 31 December 2030, 23:30 –', 'Wednesday 1 January 2031, 01:00'],
      'UTC−05:00',
      '31',
      'Dec',
    ],
    [
      'a half-hour offset without a colon',
      '2030-01-15T09:00+0530',
      '2030-01-15T17:00+0530',
      ['Tuesday 15 January 2030', '09:00 – 17:00'],
      'UTC+05:30',
      '15',
      'Jan',
    ],
    [
      'an end written in another offset: shown in the start’s',
      '2030-06-01T18:00:00+02:00',
      '2030-06-01T20:00:00Z',
      ['Saturday 1 June 2030', '18:00 – 22:00'],
      'UTC+02:00',
      '1',
      'Jun',
    ],
  ])('%s', (_case, start, end, lines, zone, day, month) => {
    expect(eventTimes(start, end)).toEqual({ lines, zone, day, month });
  });

  it.each([['not a date'], ['2030-02-30T10:00:00Z'], ['<script>']])('is null for a start that is not an ISO 8601 date-time (%s)', (start) => {
    expect(eventTimes(start)).toBeNull();
    expect(eventTimes('2030-01-01T10:00Z', start)).toBeNull();
  });
});
