import { join } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';
import { PROCESS_ROLES, type ProcessRole } from './process-role';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value);
const emptyToUndefined = ({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const ORIGIN = /^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/;
/** One resolver address: IPv4 with an optional port, a bracketed IPv6 with one, or a bare IPv6. */
const RESOLVER = String.raw`(\[[0-9a-fA-F:.]+\](:\d{1,5})?|[0-9.]+(:\d{1,5})?|[0-9a-fA-F:]+)`;
const RESOLVER_LIST = new RegExp(String.raw`^\s*${RESOLVER}(\s*,\s*${RESOLVER})*\s*$`);
/** A switch: 1/true on, 0/false (or unset: the default) off. */
const toSwitch = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : value;

/** The environment variables (README.md, "Configuration"), as they arrive (strings) and validated. */
class EnvironmentVariables {
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(PROCESS_ROLES, { message: `must be one of ${PROCESS_ROLES.join(', ')} (all: HTTP and jobs; api: HTTP only; worker: jobs only)` })
  ROLE: ProcessRole = 'all';

  @Transform(toInt)
  @IsInt({ message: 'must be an integer port number' })
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(ORIGIN, { message: 'must be an http(s) origin such as https://api.example.com' })
  BASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(ORIGIN, { message: 'must be an http(s) origin such as https://qr.example.com' })
  REDIRECT_URL?: string;

  /** Where the GS1 resolver lives on the default redirect host (docs/gs1-digital-link.md); not /r, which is the codes'. */
  @Matches(/^\/(?!r(\/|$))[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/, { message: 'must be a path such as /gs1 (lower-case segments, not /r)' })
  GS1_PATH_PREFIX = '/gs1';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^\s]+$/, { message: 'must be a postgresql:// connection URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  DATA_DIR = './data';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/[^\s]*$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'must be 1-64 characters of letters, digits and : _ . -' })
  REDIS_KEY_PREFIX = 'qr:';

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(16, { message: 'must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  @Transform(toInt)
  @IsInt({ message: 'must be a positive integer' })
  @Min(1)
  @Max(1_000_000)
  RATE_LIMIT_PER_MINUTE = 120;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of seconds (0 = off)' })
  @Min(0)
  @Max(3600)
  SEARCH_CACHE_SECONDS = 60;

  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of days' })
  @Min(1)
  @Max(36500)
  AUDIT_RETENTION_DAYS = 365;

  @Transform(({ value }) => toInt({ value: emptyToUndefined({ value }) }))
  @IsOptional()
  @IsInt({ message: 'must be a whole number of days (unset: scans are kept forever)' })
  @Min(1)
  @Max(36500)
  SCAN_RETENTION_DAYS?: number;

  @Transform(({ value }) => (value === undefined || value === '' || value === 'false' ? 0 : value === 'true' ? 1 : toInt({ value })))
  @IsInt({ message: 'must be a proxy hop count (0 = off)' })
  @Min(0)
  @Max(10)
  TRUST_PROXY = 0;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(600_000)
  DB_READ_TIMEOUT_MS = 5000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(600_000)
  DB_WRITE_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(600_000)
  DB_SCAN_STORE_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds (0 = none)' })
  @Min(0)
  @Max(86_400_000)
  DB_MIGRATION_TIMEOUT_MS = 600_000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(60_000)
  DB_CONNECT_TIMEOUT_MS = 1500;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(60_000)
  DB_LINK_CHECK_MS = 500;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(600_000)
  HTTP_REQUEST_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(600_000)
  HTTP_HEADERS_TIMEOUT_MS = 5000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(600_000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 5000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(1000)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS = 10_000;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(0)
  @Max(600_000)
  SHUTDOWN_GRACE_MS = 5000;
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsIn(['0', '1'], { message: 'must be 1 (create and print a first key when none exists) or 0' })
  BOOTSTRAP_KEY?: '0' | '1';

  @Transform(toSwitch)
  @IsBoolean({ message: 'must be 1 or 0 (true or false)' })
  WEBHOOK_ALLOW_HTTP = false;

  @Transform(toSwitch)
  @IsBoolean({ message: 'must be 1 or 0 (true or false)' })
  WEBHOOK_ALLOW_PRIVATE = false;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'must be at least 32 characters (e.g. openssl rand -hex 32)' })
  WEBHOOK_SECRETS_KEY?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  GEOIP_DB?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, { message: 'must be an HTTP header name such as CF-IPCountry' })
  GEO_COUNTRY_HEADER?: string;
  /** Comma-separated resolvers (`ip` or `ip:port`, `[ipv6]:port`); unset: the system's. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(RESOLVER_LIST, {
    message: 'must be a comma-separated list of resolver addresses such as 1.1.1.1, 9.9.9.9:53 or [2606:4700:4700::1111]:53',
  })
  DNS_RESOLVERS?: string;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(60_000)
  DNS_TIMEOUT_MS = 3000;

  @Transform(toSwitch)
  @IsBoolean({ message: 'must be 1 or 0 (true or false)' })
  TLS_ASK_ENABLED = false;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[A-Za-z0-9_]*)?\/?$/, {
    message: 'must be an http(s) URL of the ClickHouse HTTP interface, e.g. http://user:password@clickhouse:8123/qr (the path names the database)',
  })
  CLICKHOUSE_URL?: string;

  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of seconds' })
  @Min(1)
  @Max(86_400)
  CLICKHOUSE_MAX_LAG_SECONDS = 60;

  @Transform(toInt)
  @IsInt({ message: 'must be a number of milliseconds' })
  @Min(100)
  @Max(600_000)
  CLICKHOUSE_QUERY_TIMEOUT_MS = 5000;
}

/** Typed configuration of the running service. */
export interface AppConfig {
  /** ROLE: what this process does (docs/operations.md#process-roles). */
  role: ProcessRole;
  port: number;
  baseUrl: string;
  redirectUrl: string;
  /** GS1_PATH_PREFIX: the GS1 resolver's root on the default redirect host (on branded domains it is the root). */
  gs1PathPrefix: string;
  databaseUrl?: string;
  /** DATA_DIR: the embedded database (embeddedDatabaseDir) and the scan spill files (scanSpillDir) live here. */
  dataDir: string;
  embeddedDatabaseDir: string;
  scanSpillDir: string;
  redisUrl?: string;
  /** Prefix of every Redis key, so deployments (or test apps) sharing one Redis never mix data. */
  redisKeyPrefix: string;
  adminToken?: string;
  rateLimitPerMinute: number;
  /** How long search totals and pages are kept (they are also dropped at the account's next write); 0 = off. */
  searchCacheSeconds: number;
  /** Audit log entries older than this many days are deleted (docs/api-keys-and-security.md#audit-log). */
  auditRetentionDays: number;
  /** Scans (events and rollups) of days older than this many are deleted (docs/scans-and-privacy.md#retention); unset: kept forever. */
  scanRetentionDays?: number;
  trustProxy: number;
  logLevel: LogLevel;
  database: DatabaseBudgets;
  http: HttpLimits;
  /** SIGTERM ends the process within this time, whatever the database does (docs/operations.md). */
  shutdownTimeoutMs: number;
  /**
   * SHUTDOWN_GRACE_MS: at SIGTERM, how long running jobs may take to finish before they are handed
   * back to the queue (their attempt not counted); at most half of SHUTDOWN_TIMEOUT_MS.
   */
  shutdownGraceMs: number;
  /**
   * Whether start-up creates an API key, printed once, when none exists: on the embedded database
   * (a first start on a fresh machine) unless BOOTSTRAP_KEY=0; with DATABASE_URL only when
   * BOOTSTRAP_KEY=1 (production mints keys with the admin API or the CLI, never in container logs).
   */
  bootstrapKey: boolean;
  webhooks: WebhookSettings;
  geo: GeoSettings;
  domains: DomainSettings;
  /** Unset: scans live in PostgreSQL only. */
  clickhouse?: ClickHouseSettings;
}

/** Where scans' country and city come from (docs/scans-and-privacy.md#where-a-scan-comes-from). */
export interface GeoSettings {
  /** GEOIP_DB: an MMDB file (GeoLite2-City or -Country, …); unset, the bundled CC0 country database. */
  database?: string;
  /** GEO_COUNTRY_HEADER: the header a CDN names the visitor's country in; believed only with TRUST_PROXY set. */
  countryHeader?: string;
}

/** Branded domains (docs/domains-and-tls.md). */
export interface DomainSettings {
  /** DNS_RESOLVERS: the servers TXT records are looked up on; empty: the system's. */
  dnsResolvers: string[];
  /** DNS_TIMEOUT_MS: one lookup's budget, retries included. */
  dnsTimeoutMs: number;
  /** TLS_ASK_ENABLED: GET /internal/tls/ask answers (Caddy's on-demand TLS ask); 404 otherwise. */
  tlsAskEnabled: boolean;
}

/** ClickHouse as the analytics engine (docs/clickhouse.md). */
export interface ClickHouseSettings {
  /** CLICKHOUSE_URL: the HTTP interface; its path names the database (default: `default`). */
  url: string;
  /** CLICKHOUSE_MAX_LAG_SECONDS: analytics read ClickHouse only while its export is at most this far behind PostgreSQL. */
  maxLagSeconds: number;
  /** CLICKHOUSE_QUERY_TIMEOUT_MS: an analytics query unanswered this long is answered from PostgreSQL instead. */
  queryTimeoutMs: number;
}

/** Webhook delivery (docs/webhooks.md). */
export interface WebhookSettings {
  /** WEBHOOK_ALLOW_HTTP: http:// endpoint URLs are accepted (https only otherwise). */
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: endpoints may resolve to loopback, private, link-local and other internal addresses. */
  allowPrivate: boolean;
  /** WEBHOOK_SECRETS_KEY: what the key encrypting signing secrets at rest is derived from; unset, a key kept in the database. */
  secretsKey?: string;
}

/** How long each kind of database work may take (server-side statement timeout; the link watchdog cuts what outlives it). */
export interface DatabaseBudgets {
  readTimeoutMs: number;
  writeTimeoutMs: number;
  scanStoreTimeoutMs: number;
  /** 0: none */
  migrationTimeoutMs: number;
  connectTimeoutMs: number;
  /** A query unanswered this long has its link checked (a dead link then fails it at once). */
  linkCheckMs: number;
}

export interface HttpLimits {
  /** Whole request, body included: a client sending its body slowly is answered 408 after this. */
  requestTimeoutMs: number;
  /** The headers alone (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

const ENV_NAMES = [
  'ROLE',
  'PORT',
  'BASE_URL',
  'REDIRECT_URL',
  'GS1_PATH_PREFIX',
  'DATABASE_URL',
  'DATA_DIR',
  'REDIS_URL',
  'REDIS_KEY_PREFIX',
  'ADMIN_TOKEN',
  'RATE_LIMIT_PER_MINUTE',
  'SEARCH_CACHE_SECONDS',
  'AUDIT_RETENTION_DAYS',
  'SCAN_RETENTION_DAYS',
  'TRUST_PROXY',
  'LOG_LEVEL',
  'DB_READ_TIMEOUT_MS',
  'DB_WRITE_TIMEOUT_MS',
  'DB_SCAN_STORE_TIMEOUT_MS',
  'DB_MIGRATION_TIMEOUT_MS',
  'DB_CONNECT_TIMEOUT_MS',
  'DB_LINK_CHECK_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'SHUTDOWN_TIMEOUT_MS',
  'SHUTDOWN_GRACE_MS',
  'BOOTSTRAP_KEY',
  'WEBHOOK_ALLOW_HTTP',
  'WEBHOOK_ALLOW_PRIVATE',
  'WEBHOOK_SECRETS_KEY',
  'GEOIP_DB',
  'GEO_COUNTRY_HEADER',
  'DNS_RESOLVERS',
  'DNS_TIMEOUT_MS',
  'TLS_ASK_ENABLED',
  'CLICKHOUSE_URL',
  'CLICKHOUSE_MAX_LAG_SECONDS',
  'CLICKHOUSE_QUERY_TIMEOUT_MS',
] as const;

export class ConfigError extends Error {}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Validates the environment; throws ConfigError with one line naming the first bad variable. */
export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.fromEntries(ENV_NAMES.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]));
  const vars = plainToInstance(EnvironmentVariables, known, { exposeDefaultValues: true });
  const [first] = validateSync(vars, { stopAtFirstError: true });
  if (first) {
    const reason = Object.values(first.constraints ?? {})[0] ?? 'is invalid';
    throw new ConfigError(`Invalid environment variable ${first.property}: ${reason.replace(new RegExp(`^${first.property} `), '')}`);
  }
  const baseUrl = trimSlash(vars.BASE_URL ?? `http://localhost:${vars.PORT}`);
  return {
    role: vars.ROLE,
    port: vars.PORT,
    baseUrl,
    redirectUrl: trimSlash(vars.REDIRECT_URL ?? baseUrl),
    gs1PathPrefix: vars.GS1_PATH_PREFIX,
    databaseUrl: vars.DATABASE_URL,
    dataDir: vars.DATA_DIR,
    embeddedDatabaseDir: join(vars.DATA_DIR, 'pglite'),
    scanSpillDir: join(vars.DATA_DIR, 'scan-spill'),
    redisUrl: vars.REDIS_URL,
    redisKeyPrefix: vars.REDIS_KEY_PREFIX,
    adminToken: vars.ADMIN_TOKEN,
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE,
    searchCacheSeconds: vars.SEARCH_CACHE_SECONDS,
    auditRetentionDays: vars.AUDIT_RETENTION_DAYS,
    scanRetentionDays: vars.SCAN_RETENTION_DAYS,
    trustProxy: vars.TRUST_PROXY,
    logLevel: vars.LOG_LEVEL,
    database: {
      readTimeoutMs: vars.DB_READ_TIMEOUT_MS,
      writeTimeoutMs: vars.DB_WRITE_TIMEOUT_MS,
      scanStoreTimeoutMs: vars.DB_SCAN_STORE_TIMEOUT_MS,
      migrationTimeoutMs: vars.DB_MIGRATION_TIMEOUT_MS,
      connectTimeoutMs: vars.DB_CONNECT_TIMEOUT_MS,
      linkCheckMs: vars.DB_LINK_CHECK_MS,
    },
    http: {
      requestTimeoutMs: vars.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: Math.min(vars.HTTP_HEADERS_TIMEOUT_MS, vars.HTTP_REQUEST_TIMEOUT_MS),
      keepAliveTimeoutMs: vars.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    },
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS,
    shutdownGraceMs: Math.min(vars.SHUTDOWN_GRACE_MS, Math.floor(vars.SHUTDOWN_TIMEOUT_MS / 2)),
    bootstrapKey: vars.BOOTSTRAP_KEY ? vars.BOOTSTRAP_KEY === '1' : !vars.DATABASE_URL,
    webhooks: {
      allowHttp: vars.WEBHOOK_ALLOW_HTTP,
      allowPrivate: vars.WEBHOOK_ALLOW_PRIVATE,
      secretsKey: vars.WEBHOOK_SECRETS_KEY,
    },
    geo: { database: vars.GEOIP_DB, countryHeader: vars.GEO_COUNTRY_HEADER },
    domains: {
      dnsResolvers: vars.DNS_RESOLVERS ? vars.DNS_RESOLVERS.split(',').map((server) => server.trim()) : [],
      dnsTimeoutMs: vars.DNS_TIMEOUT_MS,
      tlsAskEnabled: vars.TLS_ASK_ENABLED,
    },
    clickhouse: vars.CLICKHOUSE_URL
      ? { url: vars.CLICKHOUSE_URL, maxLagSeconds: vars.CLICKHOUSE_MAX_LAG_SECONDS, queryTimeoutMs: vars.CLICKHOUSE_QUERY_TIMEOUT_MS }
      : undefined,
  };
}

/** Injection token of the AppConfig provider. */
export const APP_CONFIG = Symbol('APP_CONFIG');
