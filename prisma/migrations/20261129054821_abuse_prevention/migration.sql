-- Abuse prevention (docs/abuse-handling.md): a risk score on every code, the blocked status and what
-- blocked each code, abuse reports, the operator's blocked destinations, threat feeds and their
-- entries, and account suspensions.

-- A code's risk (0-100): the highest of its destinations' at its last write or re-screen.
ALTER TABLE "qr_codes" ADD COLUMN "risk" SMALLINT NOT NULL DEFAULT 0;
-- status may now also be 'blocked' (stored; set only by the abuse module, never by a client).
-- GET /qrcodes?status=blocked, newest first.
CREATE INDEX "qr_codes_blocked_idx" ON "qr_codes"("account_id", "created_at" DESC, "id" DESC) WHERE "status" = 'blocked';

-- What holds a code blocked: one row per cause (feed, operator, reports, suspension). The code is
-- blocked while it has a row; when the last goes, its status goes back to status_before.
CREATE TABLE "qr_code_blocks" (
    "qr_code_id" UUID NOT NULL,
    "cause" VARCHAR(16) NOT NULL,
    "account_id" UUID NOT NULL,
    -- the feed that listed the destination (cause feed), and the destination it listed
    "feed" VARCHAR(64),
    "destination" VARCHAR(2048),
    -- the operator's note (cause operator, suspension)
    "note" VARCHAR(500),
    "status_before" VARCHAR(16) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "qr_code_blocks_pkey" PRIMARY KEY ("qr_code_id", "cause")
);
ALTER TABLE "qr_code_blocks" ADD CONSTRAINT "qr_code_blocks_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "qr_code_blocks" ADD CONSTRAINT "qr_code_blocks_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "qr_code_blocks_account_id_cause_idx" ON "qr_code_blocks"("account_id", "cause");
CREATE INDEX "qr_code_blocks_cause_idx" ON "qr_code_blocks"("cause", "created_at");

-- Reports of a link by people who scanned it (POST /r/<code>/report). Kept when the code is deleted;
-- the reporter's address is kept only as a keyed hash (distinct reporters, the hourly limit).
CREATE TABLE "abuse_reports" (
    "id" UUID NOT NULL,
    "qr_code_id" UUID,
    "account_id" UUID,
    "short_code" VARCHAR(64) NOT NULL,
    -- the branded domain it was reported on; null: the default redirect host
    "hostname" VARCHAR(253),
    "destination" VARCHAR(2048),
    "reason" VARCHAR(16) NOT NULL,
    "text" VARCHAR(2000),
    "contact" VARCHAR(320),
    "reporter_hash" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "abuse_reports_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "abuse_reports" ADD CONSTRAINT "abuse_reports_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "abuse_reports" ADD CONSTRAINT "abuse_reports_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "abuse_reports_created_at_idx" ON "abuse_reports"("created_at" DESC, "id" DESC);
CREATE INDEX "abuse_reports_qr_code_id_reporter_hash_idx" ON "abuse_reports"("qr_code_id", "reporter_hash");
CREATE INDEX "abuse_reports_account_id_created_at_idx" ON "abuse_reports"("account_id", "created_at" DESC);

-- The operator's own blocked destinations (the feed "local"): hosts or host + path prefixes.
CREATE TABLE "blocked_destinations" (
    "id" UUID NOT NULL,
    "pattern" VARCHAR(2100) NOT NULL,
    -- the pattern as the feeds' entries are keyed (src/abuse/feeds/threat-keys.ts)
    "key" VARCHAR(2100) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "blocked_destinations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "blocked_destinations_key_key" ON "blocked_destinations"("key");

-- The configured threat feeds (THREAT_FEEDS) and the state of their last refresh.
CREATE TABLE "threat_feeds" (
    "name" VARCHAR(64) NOT NULL,
    "format" VARCHAR(16) NOT NULL,
    "location" VARCHAR(2048) NOT NULL,
    "entries" INTEGER NOT NULL DEFAULT 0,
    -- when the set in place was fetched (null: never)
    "fetched_at" TIMESTAMPTZ(3),
    -- the last attempt, and its error (null when it succeeded)
    "attempted_at" TIMESTAMPTZ(3),
    "error" VARCHAR(1000),
    -- when the set last changed (a re-screen follows each change)
    "changed_at" TIMESTAMPTZ(3),
    CONSTRAINT "threat_feeds_pkey" PRIMARY KEY ("name")
);

-- Each feed's set, one key a row; a refresh applies the difference in one transaction.
CREATE TABLE "threat_feed_entries" (
    "key" VARCHAR(2100) NOT NULL,
    "feed" VARCHAR(64) NOT NULL,
    CONSTRAINT "threat_feed_entries_pkey" PRIMARY KEY ("key", "feed")
);
ALTER TABLE "threat_feed_entries" ADD CONSTRAINT "threat_feed_entries_feed_fkey" FOREIGN KEY ("feed") REFERENCES "threat_feeds"("name") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "threat_feed_entries_feed_idx" ON "threat_feed_entries"("feed");

-- Suspended accounts: their keys answer 403, their codes are blocked (cause suspension) until restored.
CREATE TABLE "account_suspensions" (
    "account_id" UUID NOT NULL,
    "note" VARCHAR(500),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "account_suspensions_pkey" PRIMARY KEY ("account_id")
);
ALTER TABLE "account_suspensions" ADD CONSTRAINT "account_suspensions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
