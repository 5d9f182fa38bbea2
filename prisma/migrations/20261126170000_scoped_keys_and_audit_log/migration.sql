-- Scoped, folder-restricted and expiring API keys (docs/api-keys-and-security.md): existing keys
-- keep every scope ('*') and no folder restriction, so they work as before.
ALTER TABLE "api_keys" ADD COLUMN "scopes" TEXT[] NOT NULL DEFAULT ARRAY['*']::TEXT[];
-- Empty: every folder of the account; else the key sees only codes (and webhooks) in these folders.
ALTER TABLE "api_keys" ADD COLUMN "folder_ids" UUID[] NOT NULL DEFAULT ARRAY[]::UUID[];
ALTER TABLE "api_keys" ADD COLUMN "expires_at" TIMESTAMPTZ(3);

-- The audit log: one entry per write through the API, written in the write's own transaction.
CREATE TABLE "audit_log" (
    "id" UUID NOT NULL,
    -- Commit order per resource: an entry is written while its change holds the row's lock, so a
    -- later change of the same resource always takes a later number (created_at has ms ties).
    "seq" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "key_id" UUID,
    "key_prefix" VARCHAR(16),
    "action" VARCHAR(64) NOT NULL,
    "resource_type" VARCHAR(32) NOT NULL,
    "resource_id" VARCHAR(64),
    "request_id" VARCHAR(128),
    "changes" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "audit_log_account_id_seq_idx" ON "audit_log"("account_id", "seq" DESC);
CREATE INDEX "audit_log_account_id_resource_type_resource_id_seq_idx" ON "audit_log"("account_id", "resource_type", "resource_id", "seq" DESC);
-- The retention sweep deletes the oldest entries of every account.
CREATE INDEX "audit_log_created_at_idx" ON "audit_log"("created_at");

ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
