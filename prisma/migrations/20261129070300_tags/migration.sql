-- Tags (docs/tags-and-bulk-edits.md): an account's labels, many per code. A name is unique per
-- account without regard to case; a code keeps the ids of its tags in the order they were given,
-- in one array with a GIN index, so the list's `tag` (all of) and `tag_any` (any of) filters are
-- one condition on qr_codes beside every other filter (bench/README.md: 3 tags over 1M codes).
CREATE TABLE "tags" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" VARCHAR(50) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "tags" ADD CONSTRAINT "tags_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "tags_account_id_name_key" ON "tags" ("account_id", lower("name"));
CREATE UNIQUE INDEX "tags_id_account_id_key" ON "tags" ("id", "account_id");

ALTER TABLE "qr_codes" ADD COLUMN "tag_ids" UUID[] NOT NULL DEFAULT '{}';
CREATE INDEX "qr_codes_tag_ids_idx" ON "qr_codes" USING GIN ("tag_ids");

-- How many codes carry each tag, per folder (the nil UUID: no folder) so that a folder-restricted
-- key counts only its folders' codes; kept by statement-level triggers in the change's transaction,
-- split over 8 slots as qr_code_counts is (concurrent writers of one tag do not queue on one row).
CREATE TABLE "tag_code_counts" (
    "account_id" UUID NOT NULL,
    "tag_id" UUID NOT NULL,
    "folder_key" UUID NOT NULL,
    "slot" SMALLINT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "tag_code_counts_pkey" PRIMARY KEY ("tag_id", "folder_key", "slot")
);
ALTER TABLE "tag_code_counts" ADD CONSTRAINT "tag_code_counts_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "tag_code_counts_account_id_idx" ON "tag_code_counts" ("account_id");

-- Deltas per (tag, folder), in key order (no deadlock between concurrent statements). Joined to
-- tags: a tag deleted in the same transaction (or with its account, cascading) adds nothing.

CREATE FUNCTION "tag_code_counts_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_code_counts AS c (account_id, tag_id, folder_key, slot, n)
  SELECT t.account_id, t.id, COALESCE(r.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), pg_backend_pid() % 8, count(*)
  FROM new_rows r CROSS JOIN LATERAL unnest(r.tag_ids) AS u(tag_id) JOIN tags t ON t.id = u.tag_id
  GROUP BY 1, 2, 3 ORDER BY 2, 3
  ON CONFLICT (tag_id, folder_key, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE FUNCTION "tag_code_counts_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_code_counts AS c (account_id, tag_id, folder_key, slot, n)
  SELECT t.account_id, t.id, COALESCE(r.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), pg_backend_pid() % 8, -count(*)
  FROM old_rows r CROSS JOIN LATERAL unnest(r.tag_ids) AS u(tag_id) JOIN tags t ON t.id = u.tag_id
  GROUP BY 1, 2, 3 ORDER BY 2, 3
  ON CONFLICT (tag_id, folder_key, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

-- Only rows whose tags or folder changed move between counters (a scan flush's updates add nothing).
CREATE FUNCTION "tag_code_counts_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO tag_code_counts AS c (account_id, tag_id, folder_key, slot, n)
  SELECT t.account_id, t.id, moved.folder_key, pg_backend_pid() % 8, sum(moved.delta)
  FROM (
    SELECT u.tag_id, COALESCE(o.folder_id, '00000000-0000-0000-0000-000000000000'::uuid) AS folder_key, -1 AS delta
    FROM old_rows o JOIN new_rows n ON n.id = o.id CROSS JOIN LATERAL unnest(o.tag_ids) AS u(tag_id)
    WHERE o.tag_ids IS DISTINCT FROM n.tag_ids OR o.folder_id IS DISTINCT FROM n.folder_id
    UNION ALL
    SELECT u.tag_id, COALESCE(n.folder_id, '00000000-0000-0000-0000-000000000000'::uuid), 1
    FROM old_rows o JOIN new_rows n ON n.id = o.id CROSS JOIN LATERAL unnest(n.tag_ids) AS u(tag_id)
    WHERE o.tag_ids IS DISTINCT FROM n.tag_ids OR o.folder_id IS DISTINCT FROM n.folder_id
  ) moved JOIN tags t ON t.id = moved.tag_id
  GROUP BY 1, 2, 3 HAVING sum(moved.delta) <> 0 ORDER BY 2, 3
  ON CONFLICT (tag_id, folder_key, slot) DO UPDATE SET n = c.n + EXCLUDED.n;
  RETURN NULL;
END $$;

CREATE TRIGGER "tag_code_counts_insert" AFTER INSERT ON "qr_codes" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "tag_code_counts_insert"();
CREATE TRIGGER "tag_code_counts_delete" AFTER DELETE ON "qr_codes" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "tag_code_counts_delete"();
CREATE TRIGGER "tag_code_counts_update" AFTER UPDATE ON "qr_codes" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "tag_code_counts_update"();
