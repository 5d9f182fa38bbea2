import { isLostLink, retryingLostLinks } from './lost-link-retry';
import { DatabaseLinkError } from './pg-link-watchdog';

const prismaWrapped = (message: string) =>
  Object.assign(new Error('Raw query failed'), { code: 'P2010', meta: { driverAdapterError: { cause: new DatabaseLinkError(message) } } });

describe('isLostLink', () => {
  it.each([
    ['an answer lost on a dead link', new DatabaseLinkError('Database link cut: answer lost on a dead link (backend idle for 900 ms)'), true],
    ['a link whose backend is gone', new DatabaseLinkError('Database link cut: its backend is gone'), true],
    ['an idle link closed with the dead ones', prismaWrapped('Database link cut: closed with the links that died'), true],
    ['the database unreachable', new DatabaseLinkError('Database link cut: database unreachable (timeout expired)'), false],
    ['a query past the hard limit', new DatabaseLinkError('Database link cut: no answer within 6000 ms'), false],
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' }), false],
  ])('%s: %s', (_name, error, expected) => {
    expect(isLostLink(error)).toBe(expected);
  });
});

describe('retryingLostLinks', () => {
  it('runs a read once more after a lost link, and not a third time', async () => {
    let calls = 0;
    const runner = retryingLostLinks({
      $queryRawUnsafe: <T>() => {
        calls++;
        return Promise.reject<T>(new DatabaseLinkError('Database link cut: its backend is gone'));
      },
      $executeRawUnsafe: () => Promise.resolve(0),
    });
    await expect(runner.$queryRawUnsafe('SELECT 1')).rejects.toThrow('its backend is gone');
    expect(calls).toBe(2);
  });

  it('answers the second run, and does not run again for other errors', async () => {
    const results: Array<() => Promise<unknown>> = [
      () => Promise.reject(new DatabaseLinkError('Database link cut: answer lost on a dead link')),
      () => Promise.resolve([{ one: 1 }]),
    ];
    const runner = retryingLostLinks({ $queryRawUnsafe: <T>() => results.shift()!() as Promise<T>, $executeRawUnsafe: () => Promise.resolve(0) });
    await expect(runner.$queryRawUnsafe('SELECT 1')).resolves.toEqual([{ one: 1 }]);

    let calls = 0;
    const failing = retryingLostLinks({
      $queryRawUnsafe: <T>() => {
        calls++;
        return Promise.reject<T>(new Error('canceling statement due to statement timeout'));
      },
      $executeRawUnsafe: () => Promise.resolve(0),
    });
    await expect(failing.$queryRawUnsafe('SELECT 1')).rejects.toThrow('statement timeout');
    expect(calls).toBe(1);
  });
});
