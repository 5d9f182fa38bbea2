-- Smart links on dynamic codes (docs/smart-links.md): rules evaluated at every scan, and the link
-- controls. All null (no rules, no limit, no password, no UTM) for existing codes.
ALTER TABLE "qr_codes" ADD COLUMN "link_rules" JSONB;
ALTER TABLE "qr_codes" ADD COLUMN "max_scans" INTEGER;
ALTER TABLE "qr_codes" ADD COLUMN "fallback_url" VARCHAR(2048);
-- argon2id (PHC string); the password itself is never stored
ALTER TABLE "qr_codes" ADD COLUMN "password_hash" VARCHAR(256);
ALTER TABLE "qr_codes" ADD COLUMN "utm" JSONB;

-- Scans reserved by codes with max_scans: one atomic increment per scan, across instances, paid
-- only by such codes (ScanLimits in src/redirect/).
CREATE TABLE "qr_code_scan_reservations" (
    "qr_code_id" UUID NOT NULL,
    "reserved" INTEGER NOT NULL,

    CONSTRAINT "qr_code_scan_reservations_pkey" PRIMARY KEY ("qr_code_id")
);
ALTER TABLE "qr_code_scan_reservations" ADD CONSTRAINT "qr_code_scan_reservations_qr_code_id_fkey" FOREIGN KEY ("qr_code_id") REFERENCES "qr_codes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
