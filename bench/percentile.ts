/** The p-th percentile (nearest rank) of ascending values; NaN when there are none. */
export const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
