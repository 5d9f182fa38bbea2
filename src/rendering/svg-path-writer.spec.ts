import { PathWriter } from './svg-path-writer';

describe('PathWriter', () => {
  it('writes the first move absolute, the rest relative, without redundant separators', () => {
    const path = new PathWriter();
    path.moveTo(10, 20);
    path.lineTo(15, 20);
    path.lineTo(15, 17.5);
    path.lineTo(10.25, 20);
    path.close();
    path.moveTo(12, 30);
    path.lineTo(12, 30);
    path.close();
    expect(path.toString()).toBe('M10 20h5v-2.5l-4.75 2.5zm2 10z');
  });

  it('rounds to hundredths without letting rounding accumulate', () => {
    const path = new PathWriter();
    path.moveTo(0, 0);
    for (let step = 1; step <= 3; step++) path.lineTo(step / 3, 0);
    expect(path.toString()).toBe('M0 0h.33h.34h.33');
  });

  it('joins two quarter arcs that make a half circle into one arc', () => {
    const path = new PathWriter();
    path.moveTo(0, 0);
    path.arcTo(1, false, true, 1, 1);
    path.arcTo(1, false, true, 0, 2);
    path.arcTo(1, false, true, -1, 1);
    path.arcTo(1, false, true, 0, 0);
    path.close();
    expect(path.toString()).toBe('M0 0a1 1 0 0 1 0 2a1 1 0 0 1 0-2z');
  });

  it('keeps quarter arcs apart when they do not continue one circle', () => {
    const path = new PathWriter();
    path.moveTo(0, 0);
    path.arcTo(1, false, true, 1, 1);
    path.lineTo(1, 3);
    path.arcTo(1, false, true, 0, 4);
    path.arcTo(2, false, true, -2, 2);
    expect(path.toString()).toBe('M0 0a1 1 0 0 1 1 1v2a1 1 0 0 1-1 1a2 2 0 0 1-2-2');
  });
});
