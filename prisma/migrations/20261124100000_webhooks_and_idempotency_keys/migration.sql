-- Webhooks (endpoints, the event outbox, deliveries and their attempts) and idempotency keys of
-- create requests. Events are written in the transaction of the change they describe; a delivery
-- worker on any instance claims due deliveries with FOR UPDATE SKIP LOCKED.

CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "description" VARCHAR(500) NOT NULL DEFAULT '',
    "events" VARCHAR(32)[],
    "folder_id" UUID,
    "qrcode_ids" UUID[] DEFAULT ARRAY[]::UUID[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" VARCHAR(500),
    "secret_ciphertext" TEXT NOT NULL,
    "previous_secret_ciphertext" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_endpoints_account_id_created_at_id_idx" ON "webhook_endpoints"("account_id", "created_at" DESC, "id" DESC);
-- The scan store asks once per stored batch which accounts of its codes have an enabled endpoint
-- subscribed to scans: without any, this index is empty and the lookup costs nothing measurable.
CREATE INDEX "webhook_endpoints_scan_subscribers_idx" ON "webhook_endpoints"("account_id")
  WHERE "enabled" AND "events" && ARRAY['qrcode.scanned', '*']::VARCHAR(32)[];

ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "webhook_events" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "type" VARCHAR(32) NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "body" TEXT NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_events_occurred_at_idx" ON "webhook_events"("occurred_at");
-- Bodies of scan events run to ~25 KB (100 scans): stored out of line uncompressed, which costs
-- PostgreSQL far less CPU per scan than compressing them (they are written once, read a few times).
ALTER TABLE "webhook_events" ALTER COLUMN "body" SET STORAGE EXTERNAL;

ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "event_type" VARCHAR(32) NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "schedule_attempts" INTEGER NOT NULL DEFAULT 0,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "lease_token" UUID,
    "lease_expires_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" VARCHAR(500),
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC, "id" DESC);
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
-- The worker's claim, per endpoint: only pending deliveries are in it, so it stays small however
-- long the log grows. Leased deliveries (attempts in flight) are counted per endpoint through the
-- second one, to bound each endpoint's concurrency.
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries"("endpoint_id", "next_attempt_at") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries"("endpoint_id") WHERE "lease_token" IS NOT NULL;

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "webhook_attempts" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "delivery_id" UUID NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL,
    "status_code" INTEGER,
    "error" VARCHAR(500),
    "duration_ms" INTEGER NOT NULL,
    "response_snippet" VARCHAR(1024),
    "outcome" VARCHAR(16) NOT NULL,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_attempts_delivery_id_attempted_at_idx" ON "webhook_attempts"("delivery_id", "attempted_at");

ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "idempotency_keys" (
    "account_id" UUID NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "state" VARCHAR(16) NOT NULL,
    "response_status" INTEGER,
    "response_body" TEXT,
    "locked_until" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("account_id", "key")
);

CREATE INDEX "idempotency_keys_expires_at_idx" ON "idempotency_keys"("expires_at");

ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
