-- GS1 Digital Link items (docs/gs1-digital-link.md): an account's GS1 keys (a GTIN, a lot or serial
-- of it, an SSCC, a GLN, ...) and their links, answered by the conformant resolver on the default
-- redirect host (under GS1_PATH_PREFIX) or at the root of one of the account's verified domains.
CREATE TABLE "gs1_items" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "domain_id" UUID,
    -- The canonical key path: /01/09506000134352/10/LOT42 (GTINs in 14 digits, values percent-encoded).
    "path" VARCHAR(512) NOT NULL,
    "primary_ai" VARCHAR(4) NOT NULL,
    "primary_value" VARCHAR(40) NOT NULL,
    "name" VARCHAR(200),
    -- The item's links, read whole by every resolution: [{link_type, href, title, hreflang, type, context, default}].
    "links" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "gs1_items_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "gs1_items" ADD CONSTRAINT "gs1_items_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- An item's domain is one of its own account's; deleting the domain deletes the items answered on it.
ALTER TABLE "gs1_items" ADD CONSTRAINT "gs1_items_domain_id_account_id_fkey"
  FOREIGN KEY ("domain_id", "account_id") REFERENCES "domains"("id", "account_id") ON DELETE CASCADE ON UPDATE NO ACTION;
-- A path is one namespace on the default host (every account's) and one per domain.
CREATE UNIQUE INDEX "gs1_items_path_key" ON "gs1_items"("path") WHERE "domain_id" IS NULL;
CREATE UNIQUE INDEX "gs1_items_domain_id_path_key" ON "gs1_items"("domain_id", "path") WHERE "domain_id" IS NOT NULL;
CREATE INDEX "gs1_items_account_id_created_at_idx" ON "gs1_items"("account_id", "created_at");
CREATE INDEX "gs1_items_account_id_primary_value_idx" ON "gs1_items"("account_id", "primary_value");
