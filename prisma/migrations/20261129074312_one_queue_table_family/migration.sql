-- The job runner's queue tables become one family (docs/architecture.md#jobs): each has the columns its one
-- claim reads and writes, under the same names: next_attempt_at (due from then), lease_token and
-- lease_expires_at (held by a claim until then), and attempts where a queue counts its claims.

-- A job waiting to be tried again waits on next_attempt_at, no longer on a lease it keeps.
ALTER TABLE "jobs" ADD COLUMN "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- The ClickHouse outboxes change a row only while their claim's token holds it.
ALTER TABLE "clickhouse_export_outbox" RENAME COLUMN "claims" TO "attempts";
ALTER TABLE "clickhouse_export_outbox" ADD COLUMN "lease_token" UUID;
ALTER TABLE "clickhouse_erasures" RENAME COLUMN "claims" TO "attempts";
ALTER TABLE "clickhouse_erasures" ADD COLUMN "lease_token" UUID;

-- The claim orders the accounts with jobs to run by each one's oldest unfinished job.
CREATE INDEX "jobs_account_unfinished_idx" ON "jobs"("account_id", "created_at") WHERE "status" IN ('queued', 'running');
