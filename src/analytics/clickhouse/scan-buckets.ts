/**
 * More cells than this (buckets far shorter than the window's shortest one, which no IANA zone
 * makes since 1970) and a window is not bucketed in ClickHouse: PostgreSQL answers it.
 */
export const MAX_BUCKET_CELLS = 20_000;

/** Thrown when ClickHouse is not asked at all (not a failure of ClickHouse): PostgreSQL answers. */
export class ClickHouseDeclined extends Error {}

/** An array of whole numbers as a ClickHouse literal. */
const arrayLiteral = (values: readonly number[]) => `[${values.map((value) => String(value)).join(',')}]`;

/**
 * How rows find their bucket: the largest i with starts[i] <= ms, for every instant at or after
 * starts[0] and before the window's end. Evenly spaced starts (every hour interval, UTC days and
 * weeks) divide; uneven ones (months, days and weeks across a DST change) cut the window into cells
 * as long as its shortest bucket, so that at most one start falls inside a cell: the row's bucket is
 * its cell's first bucket, plus one from that start on. O(1) per row either way.
 */
export type BucketCells =
  { even: true; first: number; step: number } | { even: false; first: number; cell: number; firstBuckets: number[]; nextStarts: number[] };

/** The cells of planScanWindow's bucket starts (epoch ms) for a window ending at `to`. */
export function bucketCells(starts: readonly number[], to: number): BucketCells {
  for (const start of [...starts, to]) if (!Number.isSafeInteger(start)) throw new Error(`not a bucket start: ${start}`);
  const first = starts[0];
  if (starts.length <= 1) return { even: true, first, step: Math.max(1, to - first) };
  let cell = Infinity;
  for (let i = 1; i < starts.length; i++) cell = Math.min(cell, starts[i] - starts[i - 1]);
  if (!(cell > 0)) throw new Error('bucket starts out of order');
  if (starts.every((start, i) => start === first + i * cell)) return { even: true, first, step: cell };

  const count = Math.floor((to - 1 - first) / cell) + 1;
  if (count > MAX_BUCKET_CELLS) throw new ClickHouseDeclined(`a window of ${count} bucket cells`);
  const firstBuckets: number[] = [];
  const nextStarts: number[] = [];
  let bucket = 0;
  for (let k = 0; k < count; k++) {
    const cellStart = first + k * cell;
    while (bucket + 1 < starts.length && starts[bucket + 1] <= cellStart) bucket++;
    firstBuckets.push(bucket);
    // After the last start, no row reaches `to`.
    nextStarts.push(bucket + 1 < starts.length ? starts[bucket + 1] : to);
  }
  return { even: false, first, cell, firstBuckets, nextStarts };
}

/** The bucket of `ms` by the cells, in JavaScript: what bucketIndexSql computes, step by step. */
export function bucketIndexOf(cells: BucketCells, ms: number): number {
  if (cells.even) return Math.floor((ms - cells.first) / cells.step);
  const k = Math.floor((ms - cells.first) / cells.cell);
  return cells.firstBuckets[k] + (ms >= cells.nextStarts[k] ? 1 : 0);
}

/**
 * The bucket index of the instant in an epoch-milliseconds column, in ClickHouse SQL: integer
 * arithmetic and lookups in constant arrays (arrayElement: 1-based) only, so the buckets are
 * PostgreSQL's in any zone and interval whatever time zone data ClickHouse has, on 18.16 as on
 * current releases.
 */
export function bucketIndexSql(cells: BucketCells, msColumn: string): string {
  const offset = `(toInt64(${msColumn}) - ${cells.first})`;
  if (cells.even) return `intDiv(${offset}, ${cells.step})`;
  const index = `toUInt64(intDiv(${offset}, ${cells.cell})) + 1`;
  const firstBucket = `arrayElement(${arrayLiteral(cells.firstBuckets)}, ${index})`;
  const nextStart = `arrayElement(${arrayLiteral(cells.nextStarts)}, ${index})`;
  return `toInt64(${firstBucket} + (toInt64(${msColumn}) >= ${nextStart}))`;
}
