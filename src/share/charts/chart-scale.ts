/**
 * The value axis of a chart: ticks at "nice" steps (1, 2 or 5 times a power of ten) from 0 to at
 * least the largest value, so that the gridlines read as round numbers.
 */
export interface ValueScale {
  /** The top of the axis (the last tick), at least 1. */
  max: number;
  ticks: number[];
}

const NICE_STEPS = [1, 2, 5, 10];

/** At most `targetTicks + 1` ticks from 0 to a nice maximum covering `largest`. */
export function valueScale(largest: number, targetTicks = 4): ValueScale {
  const top = Math.max(1, Math.ceil(largest));
  const rough = top / targetTicks;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, (NICE_STEPS.find((nice) => nice * magnitude >= rough) ?? 10) * magnitude);
  const max = Math.ceil(top / step) * step;
  const ticks: number[] = [];
  for (let tick = 0; tick <= max; tick += step) ticks.push(tick);
  return { max, ticks };
}

/** A count as people read it: 1,234 and 12.3k past ten thousand. */
export function shortCount(value: number): string {
  if (value < 10_000) return value.toLocaleString('en-US');
  if (value < 1_000_000) return `${trimZero((value / 1000).toFixed(1))}k`;
  return `${trimZero((value / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}
