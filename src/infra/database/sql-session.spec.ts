import { isRefusedData } from './sql-session';

describe('isRefusedData', () => {
  it.each([
    ['a unique violation', { code: '23505' }, true],
    ['a malformed value (invalid text representation)', { code: '22P02' }, true],
    ['a bad COPY row (missing data for a column)', { code: '22P04' }, true],
    ['a statement timeout (query canceled)', { code: '57014' }, false],
    ['a lost connection', new Error('Connection terminated unexpectedly'), false],
    ['a deadlock', { code: '40P01' }, false],
    ['nothing', null, false],
  ])('%s: %s', (_label, error, expected) => {
    expect(isRefusedData(error)).toBe(expected);
  });
});
