-- Where a branded domain serves its codes (docs/domains-and-tls.md#short-paths): `r` at /r/<code>
-- only, `root` at /<code> as well (and dynamic_url takes the root form), as the services customers
-- import from (Bitly, Shlink, Kutt, YOURLS, Dub) serve their short links.
ALTER TABLE "domains" ADD COLUMN "short_path" VARCHAR(8) NOT NULL DEFAULT 'r';
ALTER TABLE "domains" ADD CONSTRAINT "domains_short_path_check" CHECK ("short_path" IN ('r', 'root'));
