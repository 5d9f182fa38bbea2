import { exportRetryDelayMs } from './export-retry';

describe('exportRetryDelayMs', () => {
  it.each([
    [1, 1000],
    [2, 2000],
    [3, 4000],
    [6, 32_000],
    [7, 60_000],
    [1000, 60_000],
  ])('after claim %i waits %i ms without jitter', (claims, ms) => {
    expect(exportRetryDelayMs(claims, 0.5)).toBe(ms);
  });

  it('jitters by up to 20 % either way', () => {
    expect(exportRetryDelayMs(3, 0)).toBe(3200);
    expect(exportRetryDelayMs(3, 1)).toBe(4800);
  });
});
