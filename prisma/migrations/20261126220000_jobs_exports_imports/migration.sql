-- Background jobs (docs/exports-and-imports.md): ZIP exports and CSV imports. A job is claimed by
-- one instance at a time through its lease (FOR UPDATE SKIP LOCKED, like the webhook deliveries);
-- a lease left by an instance that died runs out and the job is claimed again.
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    -- queued, running, done, failed
    "status" VARCHAR(16) NOT NULL DEFAULT 'queued',
    "params" JSONB NOT NULL DEFAULT '{}',
    -- The import's CSV, kept until the job ends (a restart re-reads it).
    "input" TEXT,
    -- The key and request that submitted the job: the job acts with the key's folder restriction and is audited under it.
    "submitted_by" JSONB NOT NULL DEFAULT '{}',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "error" VARCHAR(500),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_token" UUID,
    "lease_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),
    -- Set when the job ends: an export's file and an import's results are kept until then.
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "jobs_account_id_created_at_idx" ON "jobs"("account_id", "created_at" DESC);
-- The worker's claim: jobs not yet finished, oldest first.
CREATE INDEX "jobs_unfinished_idx" ON "jobs"("created_at") WHERE "status" IN ('queued', 'running');
CREATE INDEX "jobs_expires_at_idx" ON "jobs"("expires_at");
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An export's ZIP, in pieces of about 1 MiB, streamed back in order by the download.
CREATE TABLE "export_chunks" (
    "job_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "account_id" UUID NOT NULL,
    "bytes" BYTEA NOT NULL,

    CONSTRAINT "export_chunks_pkey" PRIMARY KEY ("job_id", "seq")
);
ALTER TABLE "export_chunks" ADD CONSTRAINT "export_chunks_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An import's result per CSV row, written in the transaction that creates the row's code.
CREATE TABLE "import_rows" (
    "job_id" UUID NOT NULL,
    "row" INTEGER NOT NULL,
    "account_id" UUID NOT NULL,
    -- created, failed; valid in a dry run
    "status" VARCHAR(16) NOT NULL,
    "qr_code_id" UUID,
    "errors" JSONB,

    CONSTRAINT "import_rows_pkey" PRIMARY KEY ("job_id", "row")
);
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_job_id_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
