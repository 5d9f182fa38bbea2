-- Erasures of a code's scan history waiting to be applied to ClickHouse's copy (docs/clickhouse.md#erasure):
-- written in the erasure's own transaction while CLICKHOUSE_URL is set, claimed by the export worker with a
-- lease, and deleted once ClickHouse has erased the rows (its ALTER TABLE ... DELETE mutation is done).
-- While any row waits, analytics read PostgreSQL.
CREATE TABLE "clickhouse_erasures" (
    "id" UUID NOT NULL,
    "qr_code_id" UUID NOT NULL,
    "before" TIMESTAMPTZ(3) NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- The export batches holding the code's scans from before the cut that were stored before the erasure and not yet
    -- exported: the mutation waits for them (one may have read its rows before the erasure and write them after). The
    -- code's later batches with such scans wait for the mutation instead (their rows stay in PostgreSQL: they must stay
    -- in ClickHouse too, so they go in after it).
    "waits_for" UUID[] NOT NULL DEFAULT '{}',
    -- when ClickHouse accepted the mutation (null: not yet issued)
    "issued_at" TIMESTAMPTZ(3),
    "claims" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_expires_at" TIMESTAMPTZ(3),
    "last_error" VARCHAR(500),

    CONSTRAINT "clickhouse_erasures_pkey" PRIMARY KEY ("id")
);

-- The claim's order.
CREATE INDEX "clickhouse_erasures_requested_at_idx" ON "clickhouse_erasures"("requested_at");
