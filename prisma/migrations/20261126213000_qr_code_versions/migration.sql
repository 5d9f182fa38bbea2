-- Destination history (docs/statuses-and-lifecycle.md#destination-history): a version per change of
-- what a code answers (content, status, expiry, and the link's rules and controls), written in the
-- change's transaction. Version 1, the state at creation, is written with the first change; until
-- then it is read from the code itself, so a create writes nothing more than its row. The key that
-- created the code is kept on the row for it (the display prefix, as in the audit log).
ALTER TABLE "qr_codes" ADD COLUMN "created_key_prefix" VARCHAR(16);

CREATE TABLE "qr_code_versions" (
    "qr_code_id" UUID NOT NULL,
    -- 1, 2, 3… per code, without gaps: written under the code's row lock, so concurrent changes of one
    -- code take the next numbers in commit order.
    "version" INTEGER NOT NULL,
    "account_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "key_prefix" VARCHAR(16),
    -- The version this one restored (POST …/history/:version/restore), else null.
    "restored_from" INTEGER,
    -- The versioned fields as the code had them after this change, in the API's names (a password as its hash).
    "state" JSONB NOT NULL,

    CONSTRAINT "qr_code_versions_pkey" PRIMARY KEY ("qr_code_id", "version")
);

-- Deleting a code deletes its history (an account's codes go with the account, and their history with them).
ALTER TABLE "qr_code_versions" ADD CONSTRAINT "qr_code_versions_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
