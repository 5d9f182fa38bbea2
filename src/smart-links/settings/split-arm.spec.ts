import { splitArmFor } from './split-arm';

const arms = (...weights: number[]) => weights.map((weight, index) => ({ url: `https://example.com/${index}`, weight }));

describe('splitArmFor', () => {
  test('the same visitor, code and rule: the same arm, every time', () => {
    const split = arms(10, 30, 60);
    for (let visitor = 0; visitor < 200; visitor++) {
      const arm = splitArmFor(split, `visitor-${visitor}`, 'code-1', 2);
      expect([1, 2, 3].map(() => splitArmFor(split, `visitor-${visitor}`, 'code-1', 2))).toEqual([arm, arm, arm]);
    }
  });

  test('each arm is reached, and only arms that exist', () => {
    const split = arms(1, 1, 1, 1, 1, 1, 1, 1, 1, 1);
    const seen = new Set(Array.from({ length: 500 }, (_, visitor) => splitArmFor(split, `v${visitor}`, 'code-1', 0)));
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test.each<[string, (visitor: number) => [string, string, number]]>([
    ['another code', (visitor) => [`v${visitor}`, 'code-2', 0]],
    ['another rule of the code', (visitor) => [`v${visitor}`, 'code-1', 1]],
    ['another visitor hash', (visitor) => [`w${visitor}`, 'code-1', 0]],
  ])('%s draws independently (about half of a 50/50 split moves)', (_case, other) => {
    const split = arms(50, 50);
    let moved = 0;
    for (let visitor = 0; visitor < 2000; visitor++) {
      if (splitArmFor(split, `v${visitor}`, 'code-1', 0) !== splitArmFor(split, ...other(visitor))) moved++;
    }
    expect(moved).toBeGreaterThan(800);
    expect(moved).toBeLessThan(1200);
  });
});
