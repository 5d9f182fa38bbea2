-- Event bodies compressed with lz4 where the server has it: a busy code's qrcode.scanned body is
-- about 200 KB of repetitive JSON, which lz4 stores in a third of the space (and WAL) at less
-- CPU than writing it uncompressed; pglz, the default, costs PostgreSQL about 2.5 ms a body.
-- A server built without lz4 (the embedded PGlite) keeps them uncompressed out of line.
DO $$
BEGIN
  ALTER TABLE "webhook_events" ALTER COLUMN "body" SET STORAGE EXTENDED;
  ALTER TABLE "webhook_events" ALTER COLUMN "body" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  ALTER TABLE "webhook_events" ALTER COLUMN "body" SET STORAGE EXTERNAL;
END $$;
