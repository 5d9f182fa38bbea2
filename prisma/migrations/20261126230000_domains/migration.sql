-- Branded domains (docs/domains-and-tls.md): an account's own hostnames, proven by a DNS TXT record,
-- on which its dynamic codes are served. Several accounts may add one hostname while it is pending;
-- only one may hold it verified (or failing, which still serves).
CREATE TABLE "domains" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "hostname" VARCHAR(253) NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "verification_token" VARCHAR(64) NOT NULL,
    "root_redirect_url" VARCHAR(2048),
    "not_found_url" VARCHAR(2048),
    "verified_at" TIMESTAMPTZ(3),
    -- The daily re-check of a verified domain: when it last ran, and the first failure since its last success.
    "checked_at" TIMESTAMPTZ(3),
    "check_failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "domains_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "domains" ADD CONSTRAINT "domains_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "domains_account_id_hostname_key" ON "domains"("account_id", "hostname");
CREATE UNIQUE INDEX "domains_id_account_id_key" ON "domains"("id", "account_id");
-- One holder of a served hostname; the redirect host and the TLS ask look hostnames up here.
CREATE UNIQUE INDEX "domains_served_hostname_key" ON "domains"("hostname") WHERE "status" <> 'pending';
CREATE INDEX "domains_hostname_idx" ON "domains"("hostname");
-- The re-check sweep reads served domains by their last check.
CREATE INDEX "domains_checked_at_idx" ON "domains"("checked_at") WHERE "status" <> 'pending';

-- A code's domain is one of its own account's; a domain in use cannot be deleted (the API moves
-- the codes first when asked to: DELETE ...?force=true).
ALTER TABLE "qr_codes" ADD COLUMN "domain_id" UUID;
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_domain_id_account_id_fkey"
  FOREIGN KEY ("domain_id", "account_id") REFERENCES "domains"("id", "account_id")
  ON DELETE NO ACTION ON UPDATE NO ACTION;

-- Short codes are unique per host: once on the default redirect host, once per domain.
DROP INDEX "qr_codes_short_code_key";
CREATE UNIQUE INDEX "qr_codes_short_code_key" ON "qr_codes"("short_code") WHERE "domain_id" IS NULL;
CREATE UNIQUE INDEX "qr_codes_domain_id_short_code_key" ON "qr_codes"("domain_id", "short_code") WHERE "domain_id" IS NOT NULL;
-- Short codes may now be chosen (vanity codes, 3 to 64 characters).
ALTER TABLE "qr_codes" ALTER COLUMN "short_code" TYPE VARCHAR(64);
