-- Scan analytics at scale (docs/scans-and-privacy.md#how-analytics-are-kept):
--   1. scan_events partitioned by month of scanned_at (UTC), a default partition as the safety net;
--   2. daily rollups per code and per account (× folder × code type), written in each scan batch's
--      transaction, built here for the rows that exist;
--   3. per-code retention (qr_codes.scan_retention_days).

-- 1. Partitions. The default partition takes a row no month partition covers yet (the service
--    creates months ahead; scan_events_ensure_month moves such rows out when it creates the month).
ALTER TABLE "scan_events" RENAME TO "scan_events_unpartitioned";
ALTER INDEX "scan_events_pkey" RENAME TO "scan_events_unpartitioned_pkey";

CREATE TABLE "scan_events" (
    "event_id" UUID NOT NULL,
    "qr_code_id" UUID NOT NULL,
    "scanned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "user_agent" VARCHAR(512),
    "referrer" VARCHAR(512),
    "device" VARCHAR(16) NOT NULL,
    "os" VARCHAR(32) NOT NULL,
    "browser" VARCHAR(32) NOT NULL,
    "visitor_hash" CHAR(32) NOT NULL,
    "is_bot" BOOLEAN NOT NULL DEFAULT false,
    "country" CHAR(2),
    "city" VARCHAR(128),
    "rule_index" SMALLINT,
    "arm_index" SMALLINT,

    CONSTRAINT "scan_events_pkey" PRIMARY KEY ("qr_code_id", "scanned_at", "event_id")
) PARTITION BY RANGE ("scanned_at");

CREATE TABLE "scan_events_default" PARTITION OF "scan_events" DEFAULT;

-- A month's partition, named scan_events_pYYYYMM (UTC month of `at`); rows the default partition holds
-- for that month move into it. Returns false when it exists. Serialised by an advisory lock: every
-- instance creates months ahead at start and daily.
CREATE FUNCTION "scan_events_ensure_month"("at" TIMESTAMPTZ) RETURNS BOOLEAN LANGUAGE plpgsql AS $$
DECLARE
  month_start TIMESTAMP := date_trunc('month', "at" AT TIME ZONE 'UTC');
  from_at TIMESTAMPTZ := month_start AT TIME ZONE 'UTC';
  to_at TIMESTAMPTZ := (month_start + INTERVAL '1 month') AT TIME ZONE 'UTC';
  part TEXT := 'scan_events_p' || to_char(month_start, 'YYYYMM');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('scan_events_partitions'));
  IF to_regclass(part) IS NOT NULL THEN
    RETURN FALSE;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE scan_events INCLUDING DEFAULTS)', part);
  EXECUTE format(
    'WITH moved AS (DELETE FROM scan_events_default WHERE scanned_at >= $1 AND scanned_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved',
    part) USING from_at, to_at;
  EXECUTE format('ALTER TABLE scan_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, from_at, to_at);
  RETURN TRUE;
END $$;

-- Months of the existing rows, this month and the next two.
SELECT "scan_events_ensure_month"(m)
FROM (
  SELECT DISTINCT date_trunc('month', scanned_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m FROM "scan_events_unpartitioned"
  UNION SELECT now() UNION SELECT now() + INTERVAL '1 month' UNION SELECT now() + INTERVAL '2 months'
) months ORDER BY m;

INSERT INTO "scan_events" ("event_id", "qr_code_id", "scanned_at", "user_agent", "referrer", "device", "os", "browser", "visitor_hash",
  "is_bot", "country", "city", "rule_index", "arm_index")
SELECT "event_id", "qr_code_id", "scanned_at", "user_agent", "referrer", "device", "os", "browser", "visitor_hash",
  "is_bot", "country", "city", "rule_index", "arm_index"
FROM "scan_events_unpartitioned";
DROP TABLE "scan_events_unpartitioned";

-- Account-wide edges (a partial day across all of an account's codes) and retention read by time
-- alone: a BRIN index costs nearly nothing on rows appended in time order.
CREATE INDEX "scan_events_scanned_at_brin" ON "scan_events" USING BRIN ("scanned_at");

-- 2. Rollups. A referrer's breakdown value (its host, "direct", "other"): one definition, used by the
--    rollups, the raw edges and the ClickHouse export.
CREATE FUNCTION "scan_referrer_host"("referrer" TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN referrer IS NULL OR btrim(referrer) = '' THEN 'direct'
    ELSE coalesce(lower(substring(referrer FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\[[^]/?#]*\]|[^/?#:]+)')), 'other') END
$$;

-- Per code and UTC day: human scans, bot scans, unique visitors (distinct visitor hashes of human
-- scans; a hash is per UTC day, so a range's unique visitors are the sum of its days').
CREATE TABLE "scan_code_days" (
    "qr_code_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "account_id" UUID NOT NULL,
    "scans" INTEGER NOT NULL DEFAULT 0,
    "bot_scans" INTEGER NOT NULL DEFAULT 0,
    "unique_visitors" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "scan_code_days_pkey" PRIMARY KEY ("qr_code_id", "day")
);
-- Top codes of an account over a window.
CREATE INDEX "scan_code_days_account_day_idx" ON "scan_code_days" ("account_id", "day") INCLUDE ("qr_code_id", "scans");

-- Per code, UTC day and dimension value: human scans. dimension: device, os, browser, referrer
-- (the host), country ('unknown' when not known), city (detail: its country), rule (value: the
-- rule's index), arm (value: the arm's index, detail: its rule's).
CREATE TABLE "scan_code_day_values" (
    "qr_code_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(512) NOT NULL,
    "detail" VARCHAR(8) NOT NULL DEFAULT '',
    "scans" INTEGER NOT NULL,

    CONSTRAINT "scan_code_day_values_pkey" PRIMARY KEY ("qr_code_id", "day", "dimension", "value", "detail")
);

-- The totals per account, folder (the nil UUID: none) and code type: account-wide analytics, whole
-- or narrowed to a folder or a type.
CREATE TABLE "scan_account_days" (
    "account_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "folder_key" UUID NOT NULL,
    "code_type" VARCHAR(16) NOT NULL,
    "scans" BIGINT NOT NULL DEFAULT 0,
    "bot_scans" BIGINT NOT NULL DEFAULT 0,
    "unique_visitors" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "scan_account_days_pkey" PRIMARY KEY ("account_id", "day", "folder_key", "code_type"),
    CONSTRAINT "scan_account_days_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);

-- The dimension values per account, without folder and type: one row per value and day, what a
-- whole account's breakdowns read (kept apart per folder and type, a day's rows multiplied by the
-- folders and types in use: 4,000 a day at the benchmark's scale, 1.5 million rows for a year).
-- Breakdowns narrowed to a folder, a type or a folder-restricted key read their codes' rows.
CREATE TABLE "scan_account_day_values" (
    "account_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "dimension" VARCHAR(8) NOT NULL,
    "value" VARCHAR(512) NOT NULL,
    "detail" VARCHAR(8) NOT NULL DEFAULT '',
    "scans" BIGINT NOT NULL,

    CONSTRAINT "scan_account_day_values_pkey" PRIMARY KEY ("account_id", "day", "dimension", "value", "detail"),
    CONSTRAINT "scan_account_day_values_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE
);

-- The visitor hashes seen per code on recent UTC days: a batch adds to unique_visitors only the
-- hashes new here. Kept for today and yesterday only (swept daily); a batch of an older day
-- recounts that day from scan_events instead (scan_rollups_recount_visitors).
CREATE TABLE "scan_day_visitors" (
    "qr_code_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "visitor_hash" CHAR(32) NOT NULL,

    CONSTRAINT "scan_day_visitors_pkey" PRIMARY KEY ("qr_code_id", "day", "visitor_hash")
);

-- Subtracts codes' rollups of days in [from_day, to_day) from their accounts' rollups and deletes
-- them (erasure, retention, a code deleted). Accounts in key order: no deadlock with batch stores.
CREATE FUNCTION "scan_rollups_remove"("codes" UUID[], "from_day" DATE, "to_day" DATE) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO scan_account_days AS a (account_id, day, folder_key, code_type, scans, bot_scans, unique_visitors)
  SELECT q.account_id, c.day, coalesce(q.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), q.type,
    -sum(c.scans), -sum(c.bot_scans), -sum(c.unique_visitors)
  FROM scan_code_days c JOIN qr_codes q ON q.id = c.qr_code_id
  WHERE c.qr_code_id = ANY(codes) AND c.day >= from_day AND c.day < to_day
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, day, folder_key, code_type) DO UPDATE
    SET scans = a.scans + EXCLUDED.scans, bot_scans = a.bot_scans + EXCLUDED.bot_scans, unique_visitors = a.unique_visitors + EXCLUDED.unique_visitors;
  INSERT INTO scan_account_day_values AS a (account_id, day, dimension, value, detail, scans)
  SELECT q.account_id, v.day, v.dimension, v.value, v.detail, -sum(v.scans)
  FROM scan_code_day_values v JOIN qr_codes q ON q.id = v.qr_code_id
  WHERE v.qr_code_id = ANY(codes) AND v.day >= from_day AND v.day < to_day
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, day, dimension, value, detail) DO UPDATE SET scans = a.scans + EXCLUDED.scans;
  DELETE FROM scan_account_day_values a USING (SELECT DISTINCT account_id FROM qr_codes WHERE id = ANY(codes)) o
    WHERE a.account_id = o.account_id AND a.day >= from_day AND a.day < to_day AND a.scans = 0;
  DELETE FROM scan_account_days a USING (SELECT DISTINCT account_id FROM qr_codes WHERE id = ANY(codes)) o
    WHERE a.account_id = o.account_id AND a.day >= from_day AND a.day < to_day AND a.scans = 0 AND a.bot_scans = 0 AND a.unique_visitors = 0;
  DELETE FROM scan_code_day_values WHERE qr_code_id = ANY(codes) AND day >= from_day AND day < to_day;
  DELETE FROM scan_code_days WHERE qr_code_id = ANY(codes) AND day >= from_day AND day < to_day;
END $$;

-- Builds codes' rollups of days in [from_day, to_day) from scan_events and adds them to their
-- accounts' (the days must have none: call scan_rollups_remove first).
CREATE FUNCTION "scan_rollups_build"("codes" UUID[], "from_day" DATE, "to_day" DATE) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
  from_at TIMESTAMPTZ := from_day::timestamp AT TIME ZONE 'UTC';
  to_at TIMESTAMPTZ := to_day::timestamp AT TIME ZONE 'UTC';
BEGIN
  CREATE TEMPORARY TABLE scan_rollups_built_days ON COMMIT DROP AS
  SELECT q.id AS qr_code_id, (s.scanned_at AT TIME ZONE 'UTC')::date AS day, q.account_id,
    coalesce(q.folder_id, '00000000-0000-0000-0000-000000000000'::uuid) AS folder_key, q.type AS code_type,
    count(*) FILTER (WHERE NOT s.is_bot)::int AS scans, count(*) FILTER (WHERE s.is_bot)::int AS bot_scans,
    count(DISTINCT s.visitor_hash) FILTER (WHERE NOT s.is_bot)::int AS unique_visitors
  FROM qr_codes q JOIN scan_events s ON s.qr_code_id = q.id
  WHERE q.id = ANY(codes) AND s.scanned_at >= from_at AND s.scanned_at < to_at
  GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO scan_code_days (qr_code_id, day, account_id, scans, bot_scans, unique_visitors)
  SELECT qr_code_id, day, account_id, scans, bot_scans, unique_visitors FROM scan_rollups_built_days;
  INSERT INTO scan_account_days AS a (account_id, day, folder_key, code_type, scans, bot_scans, unique_visitors)
  SELECT account_id, day, folder_key, code_type, sum(scans), sum(bot_scans), sum(unique_visitors)
  FROM scan_rollups_built_days GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, day, folder_key, code_type) DO UPDATE
    SET scans = a.scans + EXCLUDED.scans, bot_scans = a.bot_scans + EXCLUDED.bot_scans, unique_visitors = a.unique_visitors + EXCLUDED.unique_visitors;
  DROP TABLE scan_rollups_built_days;

  CREATE TEMPORARY TABLE scan_rollups_built_values ON COMMIT DROP AS
  SELECT d.qr_code_id, d.day, d.dimension, d.value, d.detail, sum(d.n)::int AS scans
  FROM (
    SELECT s.qr_code_id, (s.scanned_at AT TIME ZONE 'UTC')::date AS day, x.dimension, x.value, x.detail, count(*) AS n
    FROM scan_events s
    CROSS JOIN LATERAL (VALUES
      ('device', s.device::text, ''), ('os', s.os::text, ''), ('browser', s.browser::text, ''),
      ('referrer', s.referrer::text, ''), ('country', coalesce(s.country::text, 'unknown'), ''),
      ('city', s.city::text, coalesce(s.country::text, '')), ('rule', s.rule_index::text, ''),
      ('arm', s.arm_index::text, coalesce(s.rule_index::text, ''))
    ) AS x(dimension, value, detail)
    WHERE s.qr_code_id = ANY(codes) AND s.scanned_at >= from_at AND s.scanned_at < to_at AND NOT s.is_bot
      AND (x.value IS NOT NULL OR x.dimension = 'referrer')
    GROUP BY 1, 2, 3, 4, 5
  ) raw
  CROSS JOIN LATERAL (SELECT raw.qr_code_id, raw.day, raw.dimension,
    CASE WHEN raw.dimension = 'referrer' THEN scan_referrer_host(raw.value) ELSE raw.value END AS value, raw.detail, raw.n) d
  GROUP BY 1, 2, 3, 4, 5;
  INSERT INTO scan_code_day_values (qr_code_id, day, dimension, value, detail, scans)
  SELECT qr_code_id, day, dimension, value, detail, scans FROM scan_rollups_built_values;
  INSERT INTO scan_account_day_values AS a (account_id, day, dimension, value, detail, scans)
  SELECT q.account_id, v.day, v.dimension, v.value, v.detail, sum(v.scans)
  FROM scan_rollups_built_values v JOIN qr_codes q ON q.id = v.qr_code_id
  GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (account_id, day, dimension, value, detail) DO UPDATE SET scans = a.scans + EXCLUDED.scans;
  DROP TABLE scan_rollups_built_values;
END $$;

-- Recounts the unique visitors of (code, day) pairs from scan_events and moves the difference into
-- the accounts' rows: for a batch holding scans of a day whose visitor hashes are no longer kept.
CREATE FUNCTION "scan_rollups_recount_visitors"("codes" UUID[], "days" DATE[]) RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMPORARY TABLE scan_rollups_recounted ON COMMIT DROP AS
  SELECT c.qr_code_id, c.day, n.unique_visitors, n.unique_visitors - c.unique_visitors AS delta
  FROM (
    SELECT p.qr_code_id, p.day, (
      SELECT count(DISTINCT s.visitor_hash) FROM scan_events s
      WHERE s.qr_code_id = p.qr_code_id AND NOT s.is_bot
        AND s.scanned_at >= p.day::timestamp AT TIME ZONE 'UTC' AND s.scanned_at < (p.day + 1)::timestamp AT TIME ZONE 'UTC'
    )::int AS unique_visitors
    FROM (SELECT DISTINCT * FROM unnest(codes, days) AS p(qr_code_id, day)) p
  ) n JOIN scan_code_days c ON c.qr_code_id = n.qr_code_id AND c.day = n.day
  WHERE c.unique_visitors <> n.unique_visitors;
  UPDATE scan_code_days c SET unique_visitors = r.unique_visitors FROM scan_rollups_recounted r WHERE c.qr_code_id = r.qr_code_id AND c.day = r.day;
  INSERT INTO scan_account_days AS a (account_id, day, folder_key, code_type, unique_visitors)
  SELECT q.account_id, r.day, coalesce(q.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), q.type, sum(r.delta)
  FROM scan_rollups_recounted r JOIN qr_codes q ON q.id = r.qr_code_id
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, day, folder_key, code_type) DO UPDATE SET unique_visitors = a.unique_visitors + EXCLUDED.unique_visitors;
  DROP TABLE scan_rollups_recounted;
END $$;

-- A code moved to another folder takes its totals along in its account's rows (the account's value
-- rows know no folder); a deleted code's counts leave them (its scan events go with it:
-- scan_events_delete_with_codes).
CREATE FUNCTION "scan_rollups_follow_codes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    -- The codes are gone from qr_codes here: their account, folder and type come from old_rows.
    INSERT INTO scan_account_days AS a (account_id, day, folder_key, code_type, scans, bot_scans, unique_visitors)
    SELECT o.account_id, c.day, coalesce(o.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), o.type,
      -sum(c.scans), -sum(c.bot_scans), -sum(c.unique_visitors)
    FROM old_rows o JOIN scan_code_days c ON c.qr_code_id = o.id
    WHERE EXISTS (SELECT 1 FROM accounts x WHERE x.id = o.account_id)
    GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (account_id, day, folder_key, code_type) DO UPDATE
      SET scans = a.scans + EXCLUDED.scans, bot_scans = a.bot_scans + EXCLUDED.bot_scans, unique_visitors = a.unique_visitors + EXCLUDED.unique_visitors;
    INSERT INTO scan_account_day_values AS a (account_id, day, dimension, value, detail, scans)
    SELECT o.account_id, v.day, v.dimension, v.value, v.detail, -sum(v.scans)
    FROM old_rows o JOIN scan_code_day_values v ON v.qr_code_id = o.id
    WHERE EXISTS (SELECT 1 FROM accounts x WHERE x.id = o.account_id)
    GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (account_id, day, dimension, value, detail) DO UPDATE SET scans = a.scans + EXCLUDED.scans;
    DELETE FROM scan_code_day_values v USING old_rows o WHERE v.qr_code_id = o.id;
    DELETE FROM scan_code_days c USING old_rows o WHERE c.qr_code_id = o.id;
    DELETE FROM scan_day_visitors v USING old_rows o WHERE v.qr_code_id = o.id;
    RETURN NULL;
  END IF;
  -- Both sides of a move in one statement (the old folder's row minus, the new one's plus).
  INSERT INTO scan_account_days AS a (account_id, day, folder_key, code_type, scans, bot_scans, unique_visitors)
  SELECT m.account_id, c.day, m.folder_key, m.code_type, sum(m.sign * c.scans), sum(m.sign * c.bot_scans), sum(m.sign * c.unique_visitors)
  FROM (
    SELECT o.id, o.account_id, coalesce(o.folder_id, '00000000-0000-0000-0000-000000000000'::uuid) AS folder_key, o.type AS code_type, -1 AS sign
    FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.folder_id IS DISTINCT FROM n.folder_id
    UNION ALL
    SELECT n.id, n.account_id, coalesce(n.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), n.type, 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.folder_id IS DISTINCT FROM n.folder_id
  ) m JOIN scan_code_days c ON c.qr_code_id = m.id
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, day, folder_key, code_type) DO UPDATE
    SET scans = a.scans + EXCLUDED.scans, bot_scans = a.bot_scans + EXCLUDED.bot_scans, unique_visitors = a.unique_visitors + EXCLUDED.unique_visitors;
  RETURN NULL;
END $$;

CREATE TRIGGER "scan_rollups_follow_deleted_codes" AFTER DELETE ON "qr_codes" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "scan_rollups_follow_codes"();
CREATE TRIGGER "scan_rollups_follow_moved_codes" AFTER UPDATE ON "qr_codes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION "scan_rollups_follow_codes"();

-- Rollups of the rows that exist, under a lock that keeps batch stores out until this commits.
LOCK TABLE "qr_codes" IN SHARE ROW EXCLUSIVE MODE;
SELECT "scan_rollups_build"(array_agg(id), '-infinity'::date, 'infinity'::date) FROM "qr_codes"
  WHERE EXISTS (SELECT 1 FROM "scan_events" s WHERE s.qr_code_id = "qr_codes".id);
INSERT INTO "scan_day_visitors" (qr_code_id, day, visitor_hash)
SELECT DISTINCT qr_code_id, (scanned_at AT TIME ZONE 'UTC')::date, visitor_hash FROM "scan_events"
WHERE NOT is_bot AND scanned_at >= ((now() AT TIME ZONE 'UTC')::date - 1)::timestamp AT TIME ZONE 'UTC';

-- 3. Per-code retention: a dynamic code's scan events older than this many days are deleted in the
--    background (null: the deployment's SCAN_RETENTION_DAYS, else forever).
ALTER TABLE "qr_codes" ADD COLUMN "scan_retention_days" INTEGER;
