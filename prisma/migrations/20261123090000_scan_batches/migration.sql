-- Scan batches are written with COPY (about half the server time per row of an INSERT from a JSON
-- parameter), which has no ON CONFLICT: a batch re-read after a crash is recognised by its id here
-- instead of each event by its event id. A batch's id is inserted in the transaction that stores
-- its events, so both are there or neither. Ids are kept a day (a replay comes within seconds).
CREATE TABLE "scan_batches" (
    "id" UUID NOT NULL,
    "stored_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scan_batches_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "scan_batches_stored_at_idx" ON "scan_batches"("stored_at");
