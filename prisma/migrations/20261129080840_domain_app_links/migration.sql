-- App links of a branded domain (docs/sharing.md#app-links-on-branded-domains): served as its
-- /.well-known/apple-app-site-association and /.well-known/assetlinks.json.
ALTER TABLE "domains" ADD COLUMN "app_links" JSONB;
