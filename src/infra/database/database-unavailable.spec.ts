import { isDatabaseUnavailable } from './database-unavailable';

describe('isDatabaseUnavailable: one rule for every way the database can be gone', () => {
  it.each([
    ['connection refused (pg)', { code: 'ECONNREFUSED' }],
    ['connection reset (pg)', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['connection closed (pg)', new Error('Connection terminated unexpectedly')],
    ['the pool could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a new connection got no answer in time (pg)', new Error('timeout expired')],
    ['a link the watchdog cut', Object.assign(new Error('Database link cut: answer lost on a dead link'), { code: 'EDBLINK' })],
    ['too many connections', { code: '53300' }],
    ['admin shutdown', { code: '57P01' }],
    ['starting up', { code: '57P03' }],
    ['statement timeout', { code: '57014' }],
    ['a deadlock (retry later)', { code: '40P01' }],
    ['Prisma: server closed the connection', { code: 'P1017', message: 'Server has closed the connection.' }],
    ["Prisma's adapter: ConnectionClosed", { cause: { kind: 'ConnectionClosed' } }],
    [
      'Prisma: a raw query that lost its connection',
      { code: 'P2010', message: 'Raw query failed. Code: `N/A`. Message: `Connection terminated unexpectedly`' },
    ],
    [
      'Prisma: a raw query cancelled by the statement timeout',
      { code: 'P2010', message: 'Raw query failed. Code: `57014`. Message: `canceling statement`' },
    ],
    ['Prisma: a transaction that could not start in time', { code: 'P2028', message: 'Unable to start a transaction in the given time.' }],
    ['Prisma: wrapped in meta', { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable' } } } }],
  ])('%s -> unavailable', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['bad input', { code: '22P02' }],
    ['a plain bug', new TypeError('x is not a function')],
    ['nothing', null],
  ])('%s -> not unavailable', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
