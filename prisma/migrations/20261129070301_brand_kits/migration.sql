-- Brand kits (docs/brand-kits.md): a named style, frame and logo that codes reference instead of,
-- or under, their own style (a code's own fields override the kit's). `version` goes up with every
-- change of the kit: it is part of the cache key of every image of a code using the kit, so a
-- changed kit re-renders its codes without writing to them. One kit may be the account's default
-- (is_default) and one per domain the domain's (brand_kit_domains); `enforced` locks its colours
-- and logo for the codes it is the default of.
CREATE TABLE "brand_kits" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "style" JSONB NOT NULL DEFAULT '{}',
    "frame" JSONB,
    "logo" TEXT,
    "enforced" BOOLEAN NOT NULL DEFAULT false,
    "is_default" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "brand_kits_pkey" PRIMARY KEY ("id")
);
ALTER TABLE "brand_kits" ADD CONSTRAINT "brand_kits_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE UNIQUE INDEX "brand_kits_id_account_id_key" ON "brand_kits" ("id", "account_id");
CREATE INDEX "brand_kits_account_id_created_at_idx" ON "brand_kits" ("account_id", "created_at" DESC, "id" DESC);
-- At most one default kit per account.
CREATE UNIQUE INDEX "brand_kits_account_default_key" ON "brand_kits" ("account_id") WHERE "is_default";

-- A domain's default kit (at most one per domain), both of the same account; gone with either.
CREATE TABLE "brand_kit_domains" (
    "domain_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "brand_kit_id" UUID NOT NULL,

    CONSTRAINT "brand_kit_domains_pkey" PRIMARY KEY ("domain_id")
);
ALTER TABLE "brand_kit_domains" ADD CONSTRAINT "brand_kit_domains_domain_id_account_id_fkey"
  FOREIGN KEY ("domain_id", "account_id") REFERENCES "domains"("id", "account_id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "brand_kit_domains" ADD CONSTRAINT "brand_kit_domains_brand_kit_id_account_id_fkey"
  FOREIGN KEY ("brand_kit_id", "account_id") REFERENCES "brand_kits"("id", "account_id") ON DELETE CASCADE ON UPDATE NO ACTION;
CREATE INDEX "brand_kit_domains_brand_kit_id_idx" ON "brand_kit_domains" ("brand_kit_id");

-- A code's kit is one of its own account's; deleting a kit leaves its codes with their own style.
ALTER TABLE "qr_codes" ADD COLUMN "brand_kit_id" UUID;
ALTER TABLE "qr_codes" ADD CONSTRAINT "qr_codes_brand_kit_id_account_id_fkey"
  FOREIGN KEY ("brand_kit_id", "account_id") REFERENCES "brand_kits"("id", "account_id")
  ON DELETE SET NULL ("brand_kit_id") ON UPDATE NO ACTION;
CREATE INDEX "qr_codes_brand_kit_id_idx" ON "qr_codes" ("brand_kit_id") WHERE "brand_kit_id" IS NOT NULL;
