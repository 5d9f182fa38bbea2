-- Where a scan came from and which smart-link rule and split arm answered it (docs/scans-and-privacy.md).
-- Country (ISO 3166-1 alpha-2) and city come from a CDN header or the MMDB database, never from a stored IP.
ALTER TABLE "scan_events" ADD COLUMN "country" CHAR(2);
ALTER TABLE "scan_events" ADD COLUMN "city" VARCHAR(128);
-- The index (0-based) of the rule that matched in the code's rules at the scan, and of the split's arm.
ALTER TABLE "scan_events" ADD COLUMN "rule_index" SMALLINT;
ALTER TABLE "scan_events" ADD COLUMN "arm_index" SMALLINT;
