import { ReadWriteGate } from './read-write-gate';

/** A task that records its start and end in `log` and finishes when `release` is called. */
function controlled(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      log.push(`${name} start`);
      await done;
      log.push(`${name} end`);
      return name;
    },
    release,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('ReadWriteGate', () => {
  it('runs readers at the same time', async () => {
    const gate = new ReadWriteGate();
    const log: string[] = [];
    const [a, b] = [controlled(log, 'r1'), controlled(log, 'r2')];
    const reads = [gate.read(a.task), gate.read(b.task)];
    await tick();
    expect(log).toEqual(['r1 start', 'r2 start']);
    a.release();
    b.release();
    expect(await Promise.all(reads)).toEqual(['r1', 'r2']);
  });

  it('starts a writer only after the readers before it, and holds later readers until it is done', async () => {
    const gate = new ReadWriteGate();
    const log: string[] = [];
    const [r1, w, r2] = [controlled(log, 'r1'), controlled(log, 'w'), controlled(log, 'r2')];
    const all = [gate.read(r1.task), gate.write(w.task), gate.read(r2.task)];
    await tick();
    expect(log).toEqual(['r1 start']);
    r1.release();
    await tick();
    expect(log).toEqual(['r1 start', 'r1 end', 'w start']);
    w.release();
    await tick();
    expect(log).toEqual(['r1 start', 'r1 end', 'w start', 'w end', 'r2 start']);
    r2.release();
    expect(await Promise.all(all)).toEqual(['r1', 'w', 'r2']);
  });

  it('runs writers one at a time in order, and goes on after a writer fails', async () => {
    const gate = new ReadWriteGate();
    const log: string[] = [];
    const [w1, w2] = [controlled(log, 'w1'), controlled(log, 'w2')];
    const failing = gate.write(async () => {
      log.push('w0 fails');
      throw new Error('boom');
    });
    const writes = [gate.write(w1.task), gate.write(w2.task)];
    await expect(failing).rejects.toThrow('boom');
    await tick();
    expect(log).toEqual(['w0 fails', 'w1 start']);
    w1.release();
    await tick();
    expect(log).toEqual(['w0 fails', 'w1 start', 'w1 end', 'w2 start']);
    w2.release();
    expect(await Promise.all(writes)).toEqual(['w1', 'w2']);
    expect(await gate.read(async () => 'free again')).toBe('free again');
  });

  it('lets readers that waited behind a writer in before a writer that asks after them (a drain of many batches)', async () => {
    const gate = new ReadWriteGate();
    const log: string[] = [];
    const [w1, r, w2] = [controlled(log, 'w1'), controlled(log, 'r'), controlled(log, 'w2')];
    const first = gate.write(w1.task);
    await tick();
    const read = gate.read(r.task);
    w1.release();
    await first;
    // The next batch of the drain asks only now, after the reader queued.
    const second = gate.write(w2.task);
    await tick();
    expect(log).toEqual(['w1 start', 'w1 end', 'r start']);
    r.release();
    await read;
    await tick();
    expect(log).toEqual(['w1 start', 'w1 end', 'r start', 'r end', 'w2 start']);
    w2.release();
    expect(await second).toBe('w2');
  });

  it('lets a failed reader release its place', async () => {
    const gate = new ReadWriteGate();
    await expect(gate.read(async () => Promise.reject(new Error('read failed')))).rejects.toThrow('read failed');
    expect(await gate.write(async () => 'written')).toBe('written');
  });
});

describe('ReadWriteGate with a bounded read wait', () => {
  it('runs a reader outside the gate once a writer has held it up for maxWaitMs, and later readers still queue', async () => {
    jest.useFakeTimers();
    try {
      const gate = new ReadWriteGate();
      let finishWrite!: () => void;
      const write = gate.write(() => new Promise<void>((resolve) => (finishWrite = resolve)));
      const events: string[] = [];
      const patient = gate.read(async () => void events.push('patient'));
      const bounded = gate.read(async () => void events.push('bounded'), 50);
      await jest.advanceTimersByTimeAsync(51);
      expect(events).toEqual(['bounded']);
      finishWrite();
      await write;
      await patient;
      await bounded;
      expect(events).toEqual(['bounded', 'patient']);
    } finally {
      jest.useRealTimers();
    }
  });
});
