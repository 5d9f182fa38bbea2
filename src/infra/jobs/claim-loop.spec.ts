import { ClaimLoop, type StepOutcome } from './claim-loop';

const LONG_MS = 60_000;

/** A loop whose steps answer `outcomes` in turn (then `idle`), recording when each ran. */
function loopOf(outcomes: StepOutcome[], options: { idlePollMs?: number; errorPauseMs?: number; workLeftAtStop?: () => boolean } = {}) {
  const steps: number[] = [];
  let next: () => void = () => undefined;
  const loop = new ClaimLoop({
    step: () => {
      steps.push(Date.now());
      next();
      return Promise.resolve(outcomes.shift() ?? 'idle');
    },
    idlePollMs: options.idlePollMs ?? LONG_MS,
    errorPauseMs: options.errorPauseMs ?? LONG_MS,
    workLeftAtStop: options.workLeftAtStop,
  });
  const stepped = (count: number) =>
    new Promise<void>((resolve) => {
      next = () => {
        if (steps.length >= count) resolve();
      };
      next();
    });
  return { loop, steps, stepped };
}

describe('ClaimLoop', () => {
  it('steps again at once after a step that claimed work, and waits after an idle one', async () => {
    const { loop, steps, stepped } = loopOf(['more', 'more', 'idle']);
    loop.start();
    await stepped(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(steps).toHaveLength(3);
    await loop.stop(1000);
  });

  it.each([
    ['idle', { idlePollMs: 20 }],
    ['failed', { errorPauseMs: 20 }],
    [{ retryInMs: 20 }, {}],
  ] as const)('after %j it waits its pause, then steps again', async (outcome, options) => {
    const { loop, steps, stepped } = loopOf([outcome], options);
    loop.start();
    await stepped(2);
    expect(steps[1] - steps[0]).toBeGreaterThanOrEqual(15);
    await loop.stop(1000);
  });

  it('a nudge wakes an idle loop', async () => {
    const { loop, steps, stepped } = loopOf([]);
    loop.start();
    await stepped(1);
    loop.nudge();
    await stepped(2);
    expect(steps).toHaveLength(2);
    await loop.stop(1000);
  });

  it('counts tracked work while it runs, and its end wakes the loop (its slot is free)', async () => {
    const { loop, steps, stepped } = loopOf([]);
    loop.start();
    await stepped(1);
    let finish: () => void = () => undefined;
    loop.track(new Promise<void>((resolve) => (finish = resolve)));
    expect(loop.running).toBe(1);
    finish();
    await stepped(2);
    expect(loop.running).toBe(0);
    expect(steps).toHaveLength(2);
    await loop.stop(1000);
  });

  it('once stopped, steps only while work is left to record (the last records), then ends', async () => {
    let left = 0;
    let steps = 0;
    const loop = new ClaimLoop({
      step: () => {
        steps++;
        if (loop.stopRequested) left--;
        return Promise.resolve('idle');
      },
      idlePollMs: LONG_MS,
      errorPauseMs: LONG_MS,
      workLeftAtStop: () => left > 0,
    });
    loop.start();
    await loop.stop(1000);
    const before = steps;
    left = 2;
    await loop.finalSteps(1000);
    expect(steps - before).toBe(2);
    expect(left).toBe(0);
    await loop.finalSteps(1000);
    expect(steps - before).toBe(2);
  });

  it('waits a bounded time for work in flight at shutdown', async () => {
    const { loop } = loopOf([]);
    loop.start();
    loop.track(new Promise<void>(() => undefined));
    const started = Date.now();
    await loop.stop(1000);
    await loop.drain(50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(loop.running).toBe(1);
  });
});
