/**
 * List / search / create / get latency at 1M codes (issue: "list at 1M codes").
 *
 *   node -r @swc-node/register bench/list.ts [--reuse] [--drop] [--uncached] [--rounds=N]
 *        [--only=REGEX] [--skip-load] [--codes=1000000] [--others=200000] [--duration=8] [--connections=10]
 *
 *   --reuse         keep an already seeded bench database (seeding takes ~2-3 min); pending migrations
 *                   are applied to it. Without --reuse the database is dropped and recreated
 *   --drop          drop the bench database at the end (default: keep it for --reuse)
 *   --uncached      a second target, "uncached": the same app and database with SEARCH_CACHE_SECONDS=0
 *                   (every search counts and ranks its matches: the cost of a first search), run turn
 *                   about with the default app ("app", searches cached under the account's version)
 *   --rounds=N      repeat all load scenarios N times (targets alternating each time); the summary
 *                   gives the median of each figure over the rounds (default 1)
 *   --only=REGEX    only the load scenarios whose label matches (e.g. --only='unfiltered|get')
 *   --skip-load     only seed and print the EXPLAIN summaries
 *   --codes         codes of the benchmarked account (default 1,000,000)
 *   --others        codes spread over 10 other accounts (default 200,000)
 *   --duration      seconds of load per scenario (default 8; plus a 1 s warm-up)
 *   --connections   autocannon connections (default 10)
 *
 * Environment:
 *   BENCH_PG_URL     admin connection to the PostgreSQL server (default postgresql://postgres@127.0.0.1:5432/postgres)
 *   BENCH_DB         name of the bench database, must start with qr_bench (default qr_bench); nothing else is dropped
 *   BENCH_REDIS_URL  Redis of the bench app (default redis://127.0.0.1:6379)
 *   BENCH_REDIS_PREFIX  REDIS_KEY_PREFIX of the bench app (default qr-bench:). Its own prefix on purpose: the
 *                    scan buffer's queue is shared by every app instance on one prefix, and a bench app on
 *                    the default prefix would drain other instances' scans into the bench database.
 *
 * Runtime: seeding ~2-3 min; one round of all scenarios ~4 min per target (the heavy searches wait for
 * their queries to drain).
 * Memory: the bench process stays in the hundreds of MB; each bench database takes ~1.1 GB on disk.
 *
 * The data: one account ("Acme") with --codes codes and 10 accounts with --others codes between them.
 * Nine types (url 38 %, vcard 11 %, wifi 9 %, text 8 %, email 7 %, phone 7 %, event 9 %, sms 6 %, geo 5 %),
 * ~30 % dynamic with unique 8-character short codes, ~35 % in one of 40 folders, created_at spread
 * over the last 365 days, content_string encoded per type as the app's encoders do. Search terms:
 *   "zebra"  rare: in ~0.5 % of names
 *   "ca"     two characters, trigrams cannot help (~54 %)
 *   "acme"   every code of the account (100 %): every name starts with the account's brand
 *   "https"  about half (url, vcard and event content: ~53 %)
 * Other accounts use their own brand, so "acme" matches nothing of theirs.
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { createApp } from '../src/app.factory';
import { ApiKeysService } from '../src/auth/api-keys.service';
import { loadAppConfig } from '../src/config/app-config';
import { migratePostgres } from '../src/infra/database/database-connection';
import type { LoadJob, LoadResult } from './load-worker';
import { percentile } from './percentile';

// ---------------------------------------------------------------------------------------------
// Options
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string, fallback: number) => {
  const found = argv.find((arg) => arg.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const REUSE = flag('reuse');
const DROP = flag('drop');
const SKIP_LOAD = flag('skip-load');
const CODES = option('codes', 1_000_000);
const OTHERS = option('others', 200_000);
const DURATION = option('duration', 8);
const CONNECTIONS = option('connections', 10);
const ROUNDS = option('rounds', 1);
const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const DB_NAME = process.env.BENCH_DB ?? 'qr_bench';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REDIS_PREFIX = process.env.BENCH_REDIS_PREFIX ?? 'qr-bench:';
const UNCACHED = flag('uncached');
const ONLY = new RegExp(argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length) ?? '');

if (!/^qr_bench[a-z0-9_]*$/.test(DB_NAME)) throw new Error('BENCH_DB must match ^qr_bench[a-z0-9_]*$ (the bench drops it)');

const dbUrl = (() => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
})();

/** Fixed ids so that --reuse finds the seeded account again. */
const MAIN_ACCOUNT = '0b0e5c1a-0000-4000-8000-000000000001';
const MAIN_BRAND = 'Acme';
const OTHER_BRANDS = ['Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Cyberdyne', 'Soylent'];
const otherAccount = (index: number) => `0b0e5c1a-0000-4000-8000-0000000001${String(index).padStart(2, '0')}`;
const BENCH_CREATE_NAME = `${MAIN_BRAND} bench create`;

const TERMS = { rare: 'zebra', twoChars: 'ca', matchAll: 'acme', most: 'https' };

const log = (line = '') => process.stdout.write(`${line}\n`);
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);

// ---------------------------------------------------------------------------------------------
// Seeding
const sqlList = (values: string[]) => `ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(',')}]`;
/** Element of a SQL array literal picked by a uniform random value r in [0, 1). */
const pick = (arrayLiteral: string, r: string) => `(${arrayLiteral})[1 + floor((${r}) * cardinality(${arrayLiteral}))::int]`;

const PREFIXES = sqlList([
  'Campaign',
  'Spring sale',
  'Summer sale',
  'Black Friday',
  'Product',
  'Menu',
  'Event',
  'Flyer',
  'Catalog',
  'Trade fair',
  'Loyalty',
  'Newsletter',
  'Business card',
  'Packaging',
  'Promo',
  'Feedback',
  'Survey',
  'Coupon',
  'Recruiting',
  'Launch',
]);
const SUFFIXES = sqlList([
  'poster',
  'flyer',
  'sticker',
  'banner',
  'card',
  'table tent',
  'receipt',
  'box',
  'window',
  'billboard',
  'leaflet',
  'badge',
  'brochure',
  'label',
  'magazine ad',
  'shelf tag',
  'door hanger',
  'van',
  'tote bag',
  'invoice',
]);
const CITIES = sqlList([
  'Amsterdam',
  'Rotterdam',
  'Utrecht',
  'Berlin',
  'Hamburg',
  'Munich',
  'Paris',
  'Lyon',
  'London',
  'Leeds',
  'Madrid',
  'Lisbon',
  'Vienna',
  'Prague',
  'Oslo',
  'Dublin',
  'Antwerp',
  'Milan',
  'Zurich',
  'Copenhagen',
]);
const ZEBRA_THINGS = sqlList(['print', 'stripes', 'crossing', 'collection', 'edition']);
const PATHS = sqlList([
  '/',
  '/spring-sale',
  '/menu',
  '/products',
  '/products/item',
  '/events',
  '/app',
  '/feedback',
  '/jobs',
  '/contact',
  '/blog/post',
  '/store-locator',
  '/loyalty',
  '/offers',
  '/support/faq',
]);
const MEDIA = sqlList(['poster', 'flyer', 'packaging', 'print', 'event', 'sticker']);
const TEXTS = sqlList([
  'Thank you for visiting! Show this code at the counter for 10% off.',
  'Wi-Fi is free for guests. Ask staff for help.',
  'Scan to leave a review. We read every one.',
  'Serial number label. Keep for warranty claims.',
  'Table reserved. Please ask before sitting.',
  'Lost and found: return to the front desk.',
  'Allergens: contains nuts, gluten and milk.',
]);
const FIRST_NAMES = sqlList([
  'Anna',
  'Ben',
  'Chloe',
  'David',
  'Emma',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kim',
  'Lars',
  'Mila',
  'Noah',
  'Olga',
  'Pieter',
  'Quinn',
  'Rosa',
  'Sven',
  'Tara',
]);
const LAST_NAMES = sqlList([
  'de Vries',
  'Jansen',
  'Müller',
  'Schmidt',
  'Martin',
  'Bernard',
  'Smith',
  'Jones',
  'Garcia',
  'Rossi',
  'Novak',
  'Hansen',
  'Murphy',
  'Peeters',
  'Keller',
  'Silva',
  'Nielsen',
  'Berg',
  'Meyer',
  'Lambert',
]);
const TITLES = sqlList(['Sales Manager', 'Account Executive', 'Store Manager', 'Designer', 'Engineer', 'Chef', 'Consultant', 'Director']);
const EVENT_KINDS = sqlList(['Open day', 'Workshop', 'Launch party', 'Webinar', 'Tasting', 'Meetup', 'Masterclass', 'Job fair']);
const SMS_WORDS = sqlList(['JOIN', 'INFO', 'STOP', 'WIN', 'VOTE', 'BOOK']);
const EMAIL_USERS = sqlList(['info', 'support', 'sales', 'hello', 'orders', 'jobs']);
const EMAIL_SUBJECTS = sqlList(['Order ', 'Question about ', 'Feedback on ', 'Booking ', 'Quote for ']);
const PHONE_PREFIXES = sqlList(['+31 20 ', '+31 10 ', '+49 30 ', '+33 1 ', '+44 20 ', '+1 212 ']);
const SSID_KINDS = sqlList(['Guest', 'Store', 'Office', 'Event', 'Cafe']);
const DOT_TYPES = sqlList(['rounded', 'dots', 'classy', 'square', 'extra-rounded']);
const COLORS = sqlList(['#111111', '#1a73e8', '#d93025', '#188038', '#6f42c1']);
const CRLF = `E'\\r\\n'`;

/** 62^8: every short code is 8 base62 characters; i * 2654435761 mod 62^8 is a bijection (the factor is prime to 62). */
const SHORT_CODE_SPACE = '218340105584896';

/**
 * Inserts codes i = $4 .. $5 (global sequence numbers, unique across accounts) for account $1 with
 * brand $2 (lower case $3) and folders $6. Per-row random values come from a fenced subquery (OFFSET 0)
 * so that each is drawn once; parts of all types are computed, the CASE on type keeps the relevant ones.
 */
const INSERT_CODES = `
INSERT INTO qr_codes (id, account_id, name, type, content, content_string, style, folder_id, is_dynamic, short_code, status,
                      expires_at, scans, render_version, created_at, updated_at)
SELECT gen_random_uuid(), $1::uuid, p.name, p.type,
  CASE p.type
    WHEN 'url' THEN jsonb_build_object('url', p.url)
    WHEN 'text' THEN jsonb_build_object('text', p.text)
    WHEN 'email' THEN jsonb_build_object('to', p.email_to, 'subject', p.email_subject)
    WHEN 'phone' THEN jsonb_build_object('number', p.phone)
    WHEN 'sms' THEN jsonb_build_object('number', p.phone, 'message', p.sms_message)
    WHEN 'wifi' THEN jsonb_build_object('ssid', p.ssid, 'encryption', p.enc)
                     || CASE WHEN p.enc <> 'nopass' THEN jsonb_build_object('password', p.wifi_password) ELSE '{}'::jsonb END
    WHEN 'vcard' THEN jsonb_build_object('first_name', p.first_name, 'last_name', p.last_name, 'organization', $2::text, 'title', p.title,
                     'phone', p.phone, 'email', p.person_email, 'website', 'https://www.' || $3 || '.com')
    WHEN 'geo' THEN jsonb_build_object('latitude', p.lat, 'longitude', p.lon)
    ELSE jsonb_build_object('title', p.event_title, 'start', to_char(p.event_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                     'end', to_char(p.event_start AT TIME ZONE 'UTC' + interval '2 hours', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                     'location', p.city, 'description', 'Details: https://events.' || $3 || '.com/e' || p.n)
  END,
  CASE p.type
    WHEN 'url' THEN p.url
    WHEN 'text' THEN p.text
    WHEN 'email' THEN 'mailto:' || p.email_to || '?subject=' || replace(p.email_subject, ' ', '%20')
    WHEN 'phone' THEN 'tel:' || replace(p.phone, ' ', '')
    WHEN 'sms' THEN 'SMSTO:' || replace(p.phone, ' ', '') || ':' || p.sms_message
    WHEN 'wifi' THEN 'WIFI:T:' || p.enc || ';S:' || p.ssid || ';'
                  || CASE WHEN p.enc <> 'nopass' THEN 'P:' || p.wifi_password || ';' ELSE '' END || ';'
    WHEN 'vcard' THEN 'BEGIN:VCARD' || ${CRLF} || 'VERSION:3.0' || ${CRLF} || 'N:' || p.last_name || ';' || p.first_name || ';;;' || ${CRLF}
                   || 'FN:' || p.first_name || ' ' || p.last_name || ${CRLF} || 'ORG:' || $2 || ${CRLF} || 'TITLE:' || p.title || ${CRLF}
                   || 'TEL;TYPE=VOICE:' || replace(p.phone, ' ', '') || ${CRLF} || 'EMAIL;TYPE=INTERNET:' || p.person_email || ${CRLF}
                   || 'URL:https://www.' || $3 || '.com' || ${CRLF} || 'END:VCARD' || ${CRLF}
    WHEN 'geo' THEN 'geo:' || rtrim(rtrim(p.lat::text, '0'), '.') || ',' || rtrim(rtrim(p.lon::text, '0'), '.')
    ELSE 'BEGIN:VEVENT' || ${CRLF} || 'SUMMARY:' || p.event_title || ${CRLF}
         || 'DTSTART:' || to_char(p.event_start AT TIME ZONE 'UTC', 'YYYYMMDD"T"HH24MISS"Z"') || ${CRLF}
         || 'DTEND:' || to_char(p.event_start AT TIME ZONE 'UTC' + interval '2 hours', 'YYYYMMDD"T"HH24MISS"Z"') || ${CRLF}
         || 'LOCATION:' || p.city || ${CRLF} || 'DESCRIPTION:Details: https://events.' || $3 || '.com/e' || p.n || ${CRLF} || 'END:VEVENT' || ${CRLF}
  END,
  CASE WHEN p.r_style < 0.8 THEN '{}'::jsonb
       ELSE jsonb_build_object('dotsOptions',
                               jsonb_build_object('type', ${pick(DOT_TYPES, 'p.r_style * 5 - 4')}, 'color', ${pick(COLORS, 'p.r_c1')})) END,
  CASE WHEN p.r_folder < 0.35 AND cardinality($6::uuid[]) > 0 THEN ($6::uuid[])[1 + floor(p.r_folder / 0.35 * cardinality($6::uuid[]))::int] END,
  p.is_dynamic,
  CASE WHEN p.is_dynamic THEN pg_temp.base62_8((p.i * 2654435761) % ${SHORT_CODE_SPACE}) END,
  CASE WHEN p.r_status < 0.03 THEN 'paused' ELSE 'active' END,
  CASE WHEN p.is_dynamic AND p.r_status > 0.95 THEN p.created_at + interval '120 days' END,
  CASE WHEN p.is_dynamic THEN floor(power(p.r_c3, 3) * 5000)::bigint ELSE 0 END,
  CASE WHEN p.r_c2 < 0.85 THEN 1 ELSE 2 END,
  p.created_at,
  p.created_at + (now() - p.created_at) * (p.r_c2 * p.r_c2)
FROM (
  SELECT r.*,
    CASE WHEN r.r_type < .38 THEN 'url' WHEN r.r_type < .46 THEN 'text' WHEN r.r_type < .53 THEN 'email' WHEN r.r_type < .60 THEN 'phone'
         WHEN r.r_type < .66 THEN 'sms' WHEN r.r_type < .75 THEN 'wifi' WHEN r.r_type < .86 THEN 'vcard' WHEN r.r_type < .91 THEN 'geo'
         ELSE 'event' END AS type,
    $2 || ' ' || CASE
      WHEN r.r_zebra < 0.005 THEN 'Zebra ' || ${pick(ZEBRA_THINGS, 'r.r_name')} || ' ' || r.n || ' ' || ${pick(SUFFIXES, 'r.r_suffix')}
      WHEN r.r_name < 0.65 THEN ${pick(PREFIXES, 'r.r_name / 0.65')} || ' ' || lpad(r.n::text, 6, '0') || ' ' || ${pick(SUFFIXES, 'r.r_suffix')}
      WHEN r.r_name < 0.90 THEN ${pick(CITIES, '(r.r_name - 0.65) / 0.25')} || ' store ' || lpad((r.n % 1000)::text, 3, '0') || ' '
                                || ${pick(SUFFIXES, 'r.r_suffix')}
      ELSE upper(CASE WHEN r.r_type < .38 THEN 'URL' WHEN r.r_type < .75 THEN 'Contact' ELSE 'Info' END) || ' QR Code ' || r.n
    END AS name,
    ${pick(
      `ARRAY['https://www.' || $3 || '.com', 'https://shop.' || $3 || '.com', 'https://' || $3 || '.example.org', 'http://promo.' || $3 || '.net',
                 'https://www.instagram.com/' || $3, 'https://linktr.ee/' || $3, 'https://go.' || $3 || '-events.com']`,
      'r.r_c1',
    )}
      || ${pick(PATHS, 'r.r_c2')}
      || CASE WHEN r.r_c3 < 0.6 THEN '?utm_source=qr&utm_medium=' || ${pick(MEDIA, 'r.r_c3 / 0.6')} || '&utm_campaign=c' || r.n ELSE '' END AS url,
    ${pick(TEXTS, 'r.r_c1')} || ' Ref ' || r.n AS text,
    ${pick(EMAIL_USERS, 'r.r_c1')} || '@' || $3 || '.com' AS email_to,
    ${pick(EMAIL_SUBJECTS, 'r.r_c2')} || r.n AS email_subject,
    ${pick(PHONE_PREFIXES, 'r.r_c1')} || lpad((r.n % 10000000)::text, 7, '0') AS phone,
    ${pick(SMS_WORDS, 'r.r_c2')} || ' ' || r.n AS sms_message,
    $2 || '-' || ${pick(SSID_KINDS, 'r.r_c1')} || '-' || (r.n % 500) AS ssid,
    CASE WHEN r.r_c2 < 0.85 THEN 'WPA' WHEN r.r_c2 < 0.90 THEN 'WEP' ELSE 'nopass' END AS enc,
    substr(md5(r.i::text), 1, 12) AS wifi_password,
    ${pick(FIRST_NAMES, 'r.r_c1')} AS first_name,
    ${pick(LAST_NAMES, 'r.r_c2')} AS last_name,
    ${pick(TITLES, 'r.r_c3')} AS title,
    lower(${pick(FIRST_NAMES, 'r.r_c1')}) || '.' || r.n || '@' || $3 || '.com' AS person_email,
    round((50.5 + r.r_c1 * 3)::numeric, 6) AS lat,
    round((3.2 + r.r_c2 * 4)::numeric, 6) AS lon,
    $2 || ' ' || ${pick(EVENT_KINDS, 'r.r_c1')} || ' ' || r.n AS event_title,
    date_trunc('hour', r.created_at + r.r_c2 * interval '90 days') AS event_start,
    ${pick(CITIES, 'r.r_c3')} AS city
  FROM (
    SELECT i, random() AS r_type, random() AS r_name, random() AS r_suffix, random() AS r_zebra, random() AS r_c1, random() AS r_c2,
           random() AS r_c3, random() AS r_style, random() AS r_folder, random() AS r_status, random() < 0.30 AS is_dynamic,
           floor(random() * 1000000)::int AS n,
           date_trunc('milliseconds', now() - random() * interval '365 days') AS created_at
    FROM generate_series($4::bigint, $5::bigint) AS i
    OFFSET 0
  ) r
) p`;

/** The brand parameters typed once for every use ($2 || ' ' needs a known type). */
const INSERT_CODES_TYPED = INSERT_CODES.replace(/\$([23])(?!\d)(?!::)/g, '$$$1::text');

const BASE62_FUNCTION = `
CREATE OR REPLACE FUNCTION pg_temp.base62_8(value bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT string_agg(substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
                           ((value / (62::bigint ^ k)::bigint) % 62)::int + 1, 1), '' ORDER BY k DESC)
  FROM generate_series(0, 7) AS k
$$`;

async function withClient<T>(url: string, run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(name = DB_NAME): Promise<boolean> {
  return withClient(ADMIN_URL, async (client) => (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

/** --reuse: the seeded database, brought up to the project's current migrations. */
async function upgradeReused(): Promise<void> {
  const started = performance.now();
  const applied = await migratePostgres(dbUrl);
  if (applied.length === 0) return;
  await withClient(dbUrl, (db) => db.query('VACUUM (ANALYZE) qr_codes'));
  log(`applied ${applied.join(', ')} to ${DB_NAME} (${seconds(started)} s)`);
}

async function seed(): Promise<void> {
  const started = performance.now();
  await withClient(ADMIN_URL, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${DB_NAME}"`);
  });
  const applied = await migratePostgres(dbUrl);
  log(`created ${DB_NAME}, applied ${applied.length} migrations (${seconds(started)} s)`);

  await withClient(dbUrl, async (db) => {
    // Bulk-load shape: indexes built once afterwards. Triggers stay on (the list counters are the
    // project's own statement-level triggers: one upsert per chunk), and so do the FK checks.
    await db.query(`SET maintenance_work_mem = '512MB'`);
    await db.query(`SET max_parallel_maintenance_workers = 2`);
    await db.query(`SELECT setseed(0.4242)`);
    await db.query(BASE62_FUNCTION);
    const indexes = (
      await db.query<{ indexname: string; indexdef: string }>(
        `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = 'qr_codes' AND indexname <> 'qr_codes_pkey'`,
      )
    ).rows;
    for (const index of indexes) await db.query(`DROP INDEX "${index.indexname}"`);

    const accounts = [{ id: MAIN_ACCOUNT, brand: MAIN_BRAND, codes: CODES, folders: 40 }].concat(
      OTHER_BRANDS.map((brand, index) => ({ id: otherAccount(index), brand, codes: Math.floor(OTHERS / OTHER_BRANDS.length), folders: 5 })),
    );
    let next = 1;
    const loadStarted = performance.now();
    for (const account of accounts) {
      await db.query(`INSERT INTO accounts (id, created_at) VALUES ($1, now() - interval '400 days')`, [account.id]);
      const folders = (
        await db.query<{ id: string }>(
          `INSERT INTO folders (id, account_id, name, created_at, updated_at)
           SELECT gen_random_uuid(), $1, $2 || ' folder ' || f, now() - interval '380 days', now() - interval '380 days'
           FROM generate_series(1, $3::int) AS f RETURNING id`,
          [account.id, account.brand, account.folders],
        )
      ).rows.map((row) => row.id);
      for (let from = 0; from < account.codes; from += 250_000) {
        const count = Math.min(250_000, account.codes - from);
        await db.query(INSERT_CODES_TYPED, [account.id, account.brand, account.brand.toLowerCase(), next, next + count - 1, folders]);
        next += count;
      }
      if (account.id === MAIN_ACCOUNT) log(`  ${account.codes} codes of ${account.brand} inserted (${seconds(loadStarted)} s)`);
    }
    log(`  ${next - 1} codes inserted in ${seconds(loadStarted)} s`);
    const indexStarted = performance.now();
    for (const index of indexes) {
      const one = performance.now();
      await db.query(index.indexdef);
      log(`  index ${index.indexname} (${seconds(one)} s)`);
    }
    log(`  ${indexes.length} indexes rebuilt in ${seconds(indexStarted)} s`);
    const vacuumStarted = performance.now();
    // Sets the visibility map too, as autovacuum would have by the time a table reaches this size.
    await db.query(`VACUUM (ANALYZE) qr_codes`);
    await db.query(`ANALYZE accounts; ANALYZE folders; ANALYZE api_keys`);
    if ((await db.query(`SELECT to_regclass('qr_code_counts') AS t`)).rows[0].t) await db.query('VACUUM (ANALYZE) qr_code_counts');
    log(`  VACUUM ANALYZE (${seconds(vacuumStarted)} s)`);
  });
  log(`seeding took ${seconds(started)} s`);
}

// ---------------------------------------------------------------------------------------------
// The list SQL as QrCodesRepository.list sends it (same text shape, same bind parameters), for EXPLAIN.
const COLUMNS =
  'id, name, type, content, content_string, style, folder_id, is_dynamic, short_code, status, expires_at, scans, render_version, ' +
  'created_at, updated_at';
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

interface ListCase {
  type?: string;
  isDynamic?: boolean;
  search?: string;
  order?: string;
  offset?: number;
}

/** The SQL of QrCodesRepository.list (deferred-join page; total from qr_code_counts, or counted with `search`). */
function listSql(c: ListCase): { rows: [string, unknown[]]; count: [string, unknown[]] } {
  const params: unknown[] = [MAIN_ACCOUNT];
  const conditions = [`account_id = $1::uuid`];
  if (c.type) conditions.push(`type = $${params.push(c.type)}`);
  if (c.isDynamic !== undefined) conditions.push(`is_dynamic = $${params.push(c.isDynamic)}`);
  const counterConditions = [...conditions];
  if (c.search) conditions.push(`search_text LIKE lower($${params.push(likePattern(c.search))})`);
  const where = conditions.join(' AND ');
  const order = c.order ?? 'created_at DESC, id DESC';
  const page = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  return {
    rows: [
      `SELECT ${COLUMNS} FROM qr_codes WHERE account_id = $1::uuid ` +
        `AND id IN (SELECT id FROM qr_codes WHERE ${where} ORDER BY ${order} ${page}) ORDER BY ${order}`,
      [...params, 20, c.offset ?? 0],
    ],
    count: c.search
      ? [`SELECT count(*) AS total FROM qr_codes WHERE ${where}`, params]
      : [`SELECT COALESCE(sum(n), 0)::bigint AS total FROM qr_code_counts WHERE ${counterConditions.join(' AND ')}`, params],
  };
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Actual Total Time': number;
  'Plan Rows': number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Workers Launched'?: number;
  Plans?: PlanNode[];
}

function describePlan(node: PlanNode, depth = 0, lines: string[] = []): string[] {
  if (depth > 8) return lines;
  const target = node['Index Name'] ? ` using ${node['Index Name']}` : node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const workers = node['Workers Launched'] !== undefined ? `, ${node['Workers Launched']} workers` : '';
  lines.push(
    `${'  '.repeat(depth + 2)}${node['Node Type']}${target}: ` +
      `rows ${node['Actual Rows']}${node['Actual Loops'] > 1 ? `x${node['Actual Loops']}` : ''}` +
      ` (est ${node['Plan Rows']}), ${node['Actual Total Time'].toFixed(1)} ms, ` +
      `buffers hit ${node['Shared Hit Blocks'] ?? 0} read ${node['Shared Read Blocks'] ?? 0}${workers}`,
  );
  for (const child of node.Plans ?? []) describePlan(child, depth + 1, lines);
  return lines;
}

async function explain(db: Client, label: string, [sql, params]: [string, unknown[]]): Promise<void> {
  // Warm once, then explain: the figures of a warm cache, as under load.
  await db.query(sql, params);
  const result = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
  const [plan] = result.rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode; 'Planning Time': number; 'Execution Time': number }>;
  log(`  ${label}: planning ${plan['Planning Time'].toFixed(2)} ms, execution ${plan['Execution Time'].toFixed(1)} ms`);
  for (const line of describePlan(plan.Plan)) log(line);
}

async function printExplains(): Promise<void> {
  log('\nEXPLAIN (ANALYZE, BUFFERS) of the repository SQL (the benchmarked account, warm cache)');
  await withClient(dbUrl, async (db) => {
    const cases: Array<[string, ListCase]> = [
      ['unfiltered', {}],
      ['filtered type=wifi is_dynamic=true', { type: 'wifi', isDynamic: true }],
      ['deep page=500', { offset: 9980 }],
      [`rare search "${TERMS.rare}"`, { search: TERMS.rare }],
      [`2-character search "${TERMS.twoChars}"`, { search: TERMS.twoChars }],
      [`match-all search "${TERMS.matchAll}"`, { search: TERMS.matchAll }],
    ];
    for (const [label, c] of cases) {
      const sql = listSql(c);
      if (label.startsWith('deep')) {
        await explain(db, `${label} / page`, sql.rows);
        continue;
      }
      await explain(db, `${label} / page`, sql.rows);
      await explain(db, `${label} / count`, sql.count);
    }
  });
}

async function printDataSummary(): Promise<void> {
  await withClient(dbUrl, async (db) => {
    const { rows } = await db.query(
      `SELECT count(*) FILTER (WHERE account_id = $1) AS main, count(*) AS all_codes,
              count(*) FILTER (WHERE account_id = $1 AND is_dynamic) AS dynamic,
              count(*) FILTER (WHERE account_id = $1 AND folder_id IS NOT NULL) AS in_folders,
              count(*) FILTER (WHERE account_id = $1 AND type = 'wifi' AND is_dynamic) AS wifi_dynamic,
              pg_size_pretty(pg_total_relation_size('qr_codes')) AS size, pg_size_pretty(pg_relation_size('qr_codes')) AS heap
       FROM qr_codes`,
      [MAIN_ACCOUNT],
    );
    const s = rows[0];
    log(
      `data: ${s.main} codes of the account (${s.dynamic} dynamic, ${s.in_folders} in folders, ${s.wifi_dynamic} dynamic wifi), ` +
        `${s.all_codes} in all; qr_codes ${s.size} (heap ${s.heap})`,
    );
    const types = await db.query(`SELECT type, count(*) AS n FROM qr_codes WHERE account_id = $1 GROUP BY type ORDER BY n DESC`, [MAIN_ACCOUNT]);
    log(`types: ${types.rows.map((row) => `${row.type} ${row.n}`).join(', ')}`);
    if ((await db.query(`SELECT to_regclass('qr_code_counts') AS t`)).rows[0].t) {
      const counters = await db.query(`SELECT COALESCE(sum(n), 0)::bigint AS n FROM qr_code_counts WHERE account_id = $1`, [MAIN_ACCOUNT]);
      log(
        `qr_code_counts total of the account: ${counters.rows[0].n} ` +
          `(${String(counters.rows[0].n) === String(s.main) ? 'matches' : 'DOES NOT MATCH'} count(*))`,
      );
    }
    const sample = await db.query(
      `SELECT DISTINCT ON (type) type, name, content_string FROM qr_codes WHERE account_id = $1 ORDER BY type, created_at DESC`,
      [MAIN_ACCOUNT],
    );
    for (const row of sample.rows) log(`  ${row.type.padEnd(5)} ${JSON.stringify(row.name)} ${JSON.stringify(row.content_string).slice(0, 110)}`);
  });
}

// ---------------------------------------------------------------------------------------------
// Load
interface Measured extends LoadResult {
  label: string;
  serialP50?: number;
  total?: number;
  load: string;
}

/** One scenario: a 1 s warm-up, then DURATION seconds, by autocannon in a forked process (bench/load-worker.ts). */
async function load(label: string, options: Record<string, unknown>, ids?: string[]): Promise<Measured> {
  const loadAtStart = loadavg()[0].toFixed(1);
  const job: LoadJob = { options: { connections: CONNECTIONS, timeout: 120, ...options }, warmup: 1, duration: DURATION, ids };
  const worker = fork(join(__dirname, 'load-worker.ts'), [], { execArgv: ['-r', '@swc-node/register'] });
  const result = await new Promise<LoadResult>((resolve, reject) => {
    worker.once('message', (message) => resolve(message as LoadResult));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
    worker.send(job);
  });
  return { label, ...result, load: loadAtStart };
}

/** Latency of single requests one after another (no queueing): the query's own cost. */
async function serialP50(url: string, headers: Record<string, string>): Promise<number> {
  const times: number[] = [];
  const deadline = performance.now() + 4000;
  while (times.length < 25 && (times.length < 3 || performance.now() < deadline)) {
    const one = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - one);
  }
  return percentile(Float64Array.from(times).sort(), 50);
}

/**
 * Waits until no query of an earlier scenario still runs in the bench database: a request the app
 * gave up on (pool timeout) leaves its query running, which would slow the next scenario.
 */
async function drainDb(url: string): Promise<void> {
  await withClient(url, async (db) => {
    for (let waited = 0; waited < 120; waited++) {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
}

async function sampleIds(url: string): Promise<string[]> {
  return withClient(url, async (db) =>
    (await db.query<{ id: string }>(`SELECT id FROM qr_codes TABLESAMPLE SYSTEM (2) WHERE account_id = $1 LIMIT 10000`, [MAIN_ACCOUNT])).rows.map(
      (row) => row.id,
    ),
  );
}

interface Target {
  name: string;
  url: string;
  origin: string;
  headers: Record<string, string>;
  close(): Promise<void>;
}

/** The real app on a loopback port against one database, with a fresh key of the benchmarked account. */
async function startTarget(name: string, url: string, searchCache: boolean): Promise<Target> {
  const config = loadAppConfig({
    DATABASE_URL: url,
    REDIS_URL,
    REDIS_KEY_PREFIX: REDIS_PREFIX,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    ...(searchCache ? {} : { SEARCH_CACHE_SECONDS: '0' }),
  });
  const app = await createApp(config, { logger: false });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const created = await app.get(ApiKeysService).create('bench', MAIN_ACCOUNT);
  return {
    name,
    url,
    origin: `http://127.0.0.1:${port}`,
    headers: { 'x-api-key': created.key },
    close: async () => {
      await app.close();
      // Leaves the seeded data as it was for --reuse: the created codes and the bench key go.
      await withClient(url, async (db) => {
        await db.query(`DELETE FROM qr_codes WHERE account_id = $1 AND name = $2`, [MAIN_ACCOUNT, BENCH_CREATE_NAME]);
        await db.query(`DELETE FROM api_keys WHERE id = $1`, [created.id]);
      });
    },
  };
}

/**
 * Every scenario on every target, the targets taken turn about per scenario, so that both see the
 * same machine (shared machines drift by tens of percent within minutes).
 */
async function runLoad(targets: Target[]): Promise<Map<string, Measured[]>> {
  const measured = new Map<string, Measured[]>(targets.map((target) => [target.name, []]));
  const record = (target: Target, m: Measured) => {
    measured.get(target.name)?.push(m);
    printRow(m, targets.length > 1 ? target.name : undefined);
  };
  log(
    `\nautocannon ${CONNECTIONS} connections, ${DURATION} s per scenario after a 1 s warm-up; ` +
      targets.map((target) => `${target.name} = app on ${target.origin} (${new URL(target.url).pathname.slice(1)})`).join(', '),
  );
  log(
    'latencies in ms; "serial" = p50 of single requests one at a time (no queueing); ' +
      'total = pagination.total; load1 = 1-min load average at the start',
  );
  log(HEADER);

  const lists: Array<[string, string]> = [
    ['unfiltered first page', '/api/v1/qrcodes'],
    ['filtered type=wifi&is_dynamic=true', '/api/v1/qrcodes?type=wifi&is_dynamic=true'],
    ['deep page=500', '/api/v1/qrcodes?page=500'],
    ['sort=name-asc', '/api/v1/qrcodes?sort=name-asc'],
    ['sort=name-desc page=50', '/api/v1/qrcodes?sort=name-desc&page=50'],
    [`search rare "${TERMS.rare}"`, `/api/v1/qrcodes?search=${TERMS.rare}`],
    [`search 2 chars "${TERMS.twoChars}"`, `/api/v1/qrcodes?search=${TERMS.twoChars}`],
    [`search match-all "${TERMS.matchAll}"`, `/api/v1/qrcodes?search=${TERMS.matchAll}`],
    [`search most "${TERMS.most}"`, `/api/v1/qrcodes?search=${TERMS.most}`],
  ];
  for (let round = 1; round <= ROUNDS; round++) {
    if (ROUNDS > 1) log(`round ${round} of ${ROUNDS}`);
    for (const [label, path] of lists.filter(([label]) => ONLY.test(label))) {
      for (const target of targets) {
        await drainDb(target.url);
        const check = await fetch(target.origin + path, { headers: target.headers });
        const body = (await check.json()) as { pagination?: { total: number } };
        if (check.status !== 200) log(`  ${target.name} ${path}: first request answered ${check.status} ${JSON.stringify(body)}`);
        const serial = await serialP50(target.origin + path, target.headers);
        const one = await load(label, { url: target.origin + path, headers: target.headers });
        record(target, { ...one, serialP50: serial, total: body.pagination?.total });
      }
    }

    for (const target of ONLY.test('get /:id (random ids)') ? targets : []) {
      await drainDb(target.url);
      record(target, await load('get /:id (random ids)', { url: target.origin, headers: target.headers }, await sampleIds(target.url)));
    }
    // Pool protection: first searches of a heavy term (uncached target only) must not starve other requests.
    for (const target of ONLY.test('get /:id during heavy searches') ? targets.filter((candidate) => candidate.name === 'uncached') : []) {
      await drainDb(target.url);
      const ids = await sampleIds(target.url);
      const heavy = load('heavy searches', { url: `${target.origin}/api/v1/qrcodes?search=${TERMS.twoChars}`, headers: target.headers });
      record(target, await load('get /:id during heavy searches', { url: target.origin, headers: target.headers, connections: 5 }, ids));
      const searches = await heavy;
      log(
        `  (the ${CONNECTIONS} connections of "${TERMS.twoChars}" searches meanwhile: ` +
          `${searches.requests} answered, p95 ${searches.p95.toFixed(0)} ms, ${searches.statuses})`,
      );
    }
    for (const target of ONLY.test('create url (POST)') ? targets : []) {
      await drainDb(target.url);
      record(
        target,
        await load('create url (POST)', {
          url: `${target.origin}/api/v1/qrcodes`,
          method: 'POST',
          headers: { ...target.headers, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'url', name: BENCH_CREATE_NAME, content: { url: 'https://www.acme.com/bench?utm_source=qr' } }),
        }),
      );
      // The next round and target see the seeded data as it was (after the last in-flight creates landed).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await drainDb(target.url);
      await withClient(target.url, async (db) => {
        await db.query(`DELETE FROM qr_codes WHERE account_id = $1 AND name = $2`, [MAIN_ACCOUNT, BENCH_CREATE_NAME]);
        await db.query(`VACUUM qr_codes`);
      });
    }
  }
  return measured;
}

function medianOf(rows: Measured[]): Measured {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  };
  const pick = (key: 'p50' | 'p95' | 'p99' | 'max' | 'rps' | 'requests' | 'errors') => median(rows.map((row) => row[key]));
  const serials = rows.map((row) => row.serialP50).filter((value): value is number => value !== undefined);
  return {
    ...rows[0],
    p50: pick('p50'),
    p95: pick('p95'),
    p99: pick('p99'),
    max: pick('max'),
    rps: pick('rps'),
    requests: Math.round(pick('requests')),
    errors: Math.round(pick('errors')),
    serialP50: serials.length ? median(serials) : undefined,
    load: rows.map((row) => row.load).join('/'),
    statuses: rows.length > 1 ? rows.map((row) => row.statuses).join(' | ') : rows[0].statuses,
  };
}

const fmt = (value: number, width = 8) => (Number.isFinite(value) ? value.toFixed(value < 10 ? 1 : 0) : '-').padStart(width);
const HEADER =
  `${'scenario'.padEnd(48)}${'total'.padStart(9)}${'serial'.padStart(8)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}` +
  `${'max'.padStart(8)}${'req/s'.padStart(8)}${'n'.padStart(7)}${'err'.padStart(5)}  load1 statuses`;
function printRow(m: Measured, target?: string): void {
  log(
    `${(target ? `${target}: ${m.label}` : m.label).padEnd(48)}${(m.total === undefined ? '' : String(m.total)).padStart(9)}` +
      `${fmt(m.serialP50 ?? NaN)}${fmt(m.p50)}${fmt(m.p95)}${fmt(m.p99)}${fmt(m.max)}${fmt(m.rps)}` +
      `${String(m.requests).padStart(7)}${String(m.errors).padStart(5)}  ${m.load.padStart(5)} ${m.statuses}`,
  );
}

// ---------------------------------------------------------------------------------------------
async function main(): Promise<void> {
  log(
    `bench/list: ${DB_NAME} on ${new URL(ADMIN_URL).host}, ${CODES} codes + ${OTHERS} of other accounts, ` +
      `Redis ${REDIS_URL} (prefix ${REDIS_PREFIX}), ` +
      `load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' ')}`,
  );
  try {
    if (REUSE && (await databaseExists())) {
      log(`reusing ${DB_NAME} (--reuse)`);
      await upgradeReused();
    } else {
      await seed();
    }
    await printDataSummary();
    await printExplains();
    if (!SKIP_LOAD) await loadRun();
  } finally {
    if (DROP) {
      await withClient(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`));
      log(`dropped ${DB_NAME}`);
    } else {
      log(`\nkept ${DB_NAME} (rerun with --reuse; drop with --drop, or DROP DATABASE in psql)`);
    }
  }
}

async function loadRun(): Promise<void> {
  const targets = [await startTarget('app', dbUrl, true)];
  if (UNCACHED) targets.push(await startTarget('uncached', dbUrl, false));
  let measured: Map<string, Measured[]>;
  try {
    measured = await runLoad(targets);
  } finally {
    for (const target of targets) await target.close();
  }
  log(ROUNDS > 1 ? `\nsummary: median over ${ROUNDS} rounds of each figure` : '\nsummary');
  log(HEADER);
  const summary = new Map<string, Measured[]>();
  for (const [name, rows] of measured) {
    const labels = [...new Set(rows.map((row) => row.label))];
    summary.set(
      name,
      labels.map((label) => medianOf(rows.filter((row) => row.label === label))),
    );
  }
  const named = targets.length > 1;
  for (const [name, rows] of summary) for (const m of rows) printRow(m, named ? name : undefined);
  for (const [name, rows] of summary) {
    for (const m of rows.filter((row) => /^(unfiltered|filtered|search rare)/.test(row.label))) {
      log(`target p95 < 50 ms: ${named ? `${name}: ` : ''}${m.label}: ${m.p95.toFixed(1)} ms ${m.p95 < 50 ? 'MET' : 'MISSED'}`);
    }
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
