-- Resolutions of GS1 items that redirected a person (docs/gs1-digital-link.md#scans): one row per
-- resolution with the key it was for (primary key, lot, serial) and the link type it was sent to.
-- Written in batches by the GS1 scan buffer (src/gs1/scans), read by GET /api/v1/gs1/items/:id/scans.
CREATE TABLE "gs1_scan_events" (
    "event_id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "item_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "scanned_at" TIMESTAMPTZ(3) NOT NULL,
    "primary_ai" VARCHAR(4) NOT NULL,
    "primary_value" VARCHAR(40) NOT NULL,
    "lot" VARCHAR(40),
    "serial" VARCHAR(40),
    "link_type" VARCHAR(100) NOT NULL,
    "is_bot" BOOLEAN NOT NULL,
    "country" VARCHAR(2),
    "visitor_hash" VARCHAR(32) NOT NULL,
    CONSTRAINT "gs1_scan_events_pkey" PRIMARY KEY ("item_id", "scanned_at", "event_id")
);
-- The item's resolutions go with it (and with its account).
ALTER TABLE "gs1_scan_events" ADD CONSTRAINT "gs1_scan_events_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "gs1_items"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "gs1_scan_events" ADD CONSTRAINT "gs1_scan_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- An item's non-bot resolutions, as its representation's `scans`.
ALTER TABLE "gs1_items" ADD COLUMN "scans" BIGINT NOT NULL DEFAULT 0;
