-- Periodic tasks of the job runner (docs/architecture.md#jobs): one row per task and period, inserted by the
-- instance that claims the period. The primary key makes a period's run once per cluster; a run whose instance
-- died keeps its row with a lease that runs out, and another instance takes it over then.
CREATE TABLE "periodic_task_runs" (
    "task" VARCHAR(64) NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "lease_token" UUID,
    "lease_expires_at" TIMESTAMPTZ(3),
    "claims" INTEGER NOT NULL DEFAULT 1,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "finished_at" TIMESTAMPTZ(3),
    "last_error" VARCHAR(500),

    CONSTRAINT "periodic_task_runs_pkey" PRIMARY KEY ("task","period_start")
);

-- The sweep of old runs, and the last success per task (/metrics).
CREATE INDEX "periodic_task_runs_finished_at_idx" ON "periodic_task_runs"("finished_at");
