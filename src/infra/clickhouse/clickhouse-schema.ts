/**
 * The ClickHouse schema (docs/clickhouse.md), as idempotent statements the export worker runs in
 * order before its first export, on every start: a new table or column is a new statement at the
 * end (CREATE ... IF NOT EXISTS, ALTER ... ADD COLUMN IF NOT EXISTS), never an edit of one above.
 *
 * Types both Debian's ClickHouse 18.16 and current releases accept: no DateTime64 (the instant is
 * kept to the millisecond in `scanned_at_ms`, `scanned_at` is its second, for partitions and the
 * sort key), no LowCardinality, no TTL (retention drops whole months: DROP PARTITION), no codecs.
 *
 * Plain MergeTree, not ReplacingMergeTree: a batch is written once (the export looks for a batch
 * it may have written before writing it again; see clickhouse-scan-events.repository.ts), so
 * reads count rows as they are, without FINAL or argMax.
 */
export function clickHouseSchema(database: string): string[] {
  return [
    `CREATE DATABASE IF NOT EXISTS ${database}`,
    `CREATE TABLE IF NOT EXISTS ${database}.scan_events (
      account_id UUID,
      qr_code_id UUID,
      scanned_at DateTime('UTC'),
      scanned_at_ms UInt64,
      event_id UUID,
      batch_id UUID,
      visitor_hash FixedString(32),
      is_bot UInt8,
      device String,
      os String,
      browser String,
      referrer Nullable(String),
      referrer_host String,
      user_agent Nullable(String),
      country Nullable(FixedString(2)),
      city Nullable(String),
      rule_index Nullable(Int16),
      arm_index Nullable(Int16),
      exported_at DateTime('UTC') DEFAULT now()
    ) ENGINE = MergeTree
    PARTITION BY toYYYYMM(scanned_at)
    ORDER BY (account_id, qr_code_id, scanned_at)
    SETTINGS index_granularity = 8192`,
  ];
}
