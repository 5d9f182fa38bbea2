-- The ClickHouse export's outbox (docs/clickhouse.md): one row per stored scan batch, written in the
-- batch's own transaction while CLICKHOUSE_URL is set, deleted once ClickHouse holds the batch's rows.
-- It names the batch's rows by their primary-key parts (codes, time span, event ids): the rows stay in
-- scan_events only, and a row deleted meanwhile (its code deleted, erased) is not exported.
CREATE TABLE "clickhouse_export_outbox" (
    "batch_id" UUID NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "row_count" INTEGER NOT NULL,
    "code_ids" UUID[] NOT NULL,
    "first_scanned_at" TIMESTAMPTZ(3) NOT NULL,
    "last_scanned_at" TIMESTAMPTZ(3) NOT NULL,
    "event_ids" UUID[] NOT NULL,
    "claims" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_expires_at" TIMESTAMPTZ(3),
    "last_error" VARCHAR(500),

    CONSTRAINT "clickhouse_export_outbox_pkey" PRIMARY KEY ("batch_id")
);

-- The claim's order and the lag (the oldest batch not yet exported).
CREATE INDEX "clickhouse_export_outbox_stored_at_idx" ON "clickhouse_export_outbox"("stored_at");
