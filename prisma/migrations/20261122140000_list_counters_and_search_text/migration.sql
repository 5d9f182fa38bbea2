-- List totals without counting rows (trigger-kept counters per account, type, dynamic state and folder),
-- and one lower-cased search column with one trigram index (bench/list.ts measured both).
-- The counters are kept by statement-level triggers in the same transaction as the change, so they
-- are exact; a list without `search` sums a few hundred rows instead of counting millions of codes.
--
-- Each key is split over 8 slots (the writing backend's pid modulo 8; the total is the sum): one
-- counter row per key would serialize concurrent creates of an account on its row lock until
-- commit. Cost measured with pgbench (10 clients, single-row INSERTs): ~5,500 -> ~4,300 per second.

CREATE TABLE "qr_code_counts" (
    "account_id" UUID NOT NULL,
    "type" VARCHAR(16) NOT NULL,
    "is_dynamic" BOOLEAN NOT NULL,
    -- folder_id, or the nil UUID for "no folder" (a primary key column cannot be NULL)
    "folder_key" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "qr_code_counts_pkey" PRIMARY KEY ("account_id", "type", "is_dynamic", "folder_key", "slot")
);

ALTER TABLE "qr_code_counts" ADD CONSTRAINT "qr_code_counts_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each function adds signed deltas per key, in key order (concurrent statements lock counter rows
-- in the same order: no deadlock). Plain SQL in each function: a shared helper taking the deltas as
-- JSONB halved insert throughput (measured).
CREATE FUNCTION "qr_code_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO qr_code_counts AS c (account_id, type, is_dynamic, folder_key, slot, n)
  SELECT account_id, type, is_dynamic, COALESCE(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), pg_backend_pid() % 8, count(*)
  FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, type, is_dynamic, folder_key, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- Only accounts that still exist: when an account is deleted, its codes' deltas are dropped and its
-- counters go with it (cascade), in whichever order the cascades run.
CREATE FUNCTION "qr_code_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO qr_code_counts AS c (account_id, type, is_dynamic, folder_key, slot, n)
  SELECT o.account_id, o.type, o.is_dynamic, COALESCE(o.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), pg_backend_pid() % 8, -count(*)
  FROM old_rows o WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = o.account_id)
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, type, is_dynamic, folder_key, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- Only rows whose is_dynamic or folder changed move between counters (scan-count updates add nothing).
CREATE FUNCTION "qr_code_counts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO qr_code_counts AS c (account_id, type, is_dynamic, folder_key, slot, n)
  SELECT account_id, type, is_dynamic, folder_key, pg_backend_pid() % 8, sum(delta)
  FROM (
    SELECT o.account_id, o.type, o.is_dynamic, COALESCE(o.folder_id, '00000000-0000-0000-0000-000000000000'::uuid) AS folder_key, -1 AS delta
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.is_dynamic <> n.is_dynamic OR o.folder_id IS DISTINCT FROM n.folder_id
    UNION ALL
    SELECT n.account_id, n.type, n.is_dynamic, COALESCE(n.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.is_dynamic <> n.is_dynamic OR o.folder_id IS DISTINCT FROM n.folder_id
  ) moved
  WHERE EXISTS (SELECT 1 FROM accounts a WHERE a.id = moved.account_id)
  GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
  ON CONFLICT (account_id, type, is_dynamic, folder_key, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE TRIGGER "qr_code_counts_insert" AFTER INSERT ON "qr_codes" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "qr_code_counts_insert"();
CREATE TRIGGER "qr_code_counts_delete" AFTER DELETE ON "qr_codes" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "qr_code_counts_delete"();
CREATE TRIGGER "qr_code_counts_update" AFTER UPDATE ON "qr_codes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "qr_code_counts_update"();

-- Backfill under a lock that keeps writers out until the migration commits (the triggers exist from here on).
LOCK TABLE "qr_codes" IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO "qr_code_counts" (account_id, type, is_dynamic, folder_key, slot, n)
SELECT account_id, type, is_dynamic, COALESCE(folder_id, '00000000-0000-0000-0000-000000000000'::uuid), 0, count(*)
FROM "qr_codes" GROUP BY 1, 2, 3, 4;

-- `search` matches one stored, lower-cased column with LIKE instead of ILIKE over two columns:
-- ILIKE lowers every candidate's name and content at query time (most of a search count's cost),
-- and one trigram index replaces two. The newline separates name and content, so a term matches
-- across the two only if it contains a newline itself (search terms are trimmed).
ALTER TABLE "qr_codes" ADD COLUMN "search_text" TEXT GENERATED ALWAYS AS (lower("name"::text || E'\n' || "content_string")) STORED;

CREATE INDEX "qr_codes_search_text_trgm_idx" ON "qr_codes" USING GIN ("search_text" gin_trgm_ops);

DROP INDEX "qr_codes_name_trgm_idx";
DROP INDEX "qr_codes_content_string_trgm_idx";
