import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
const emptyToUndefined = ({ value }: { value: unknown }) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;
const ORIGIN = /^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/;

/** Environment variables of design §2, as they arrive (strings) and validated. */
class EnvironmentVariables {
  @Transform(toInt) @IsInt({ message: 'must be an integer port number' }) @Min(0) @Max(65535)
  PORT = 3000;

  @Transform(emptyToUndefined) @IsOptional() @Matches(ORIGIN, { message: 'must be an http(s) origin such as https://api.example.com' })
  BASE_URL?: string;

  @Transform(emptyToUndefined) @IsOptional() @Matches(ORIGIN, { message: 'must be an http(s) origin such as https://qr.example.com' })
  REDIRECT_URL?: string;

  @Transform(emptyToUndefined) @IsOptional()
  @Matches(/^postgres(ql)?:\/\/[^\s]+$/, { message: 'must be a postgresql:// connection URL' })
  DATABASE_URL?: string;

  @Transform(emptyToUndefined) @IsOptional() @IsString()
  DATA_DIR = './data';

  @Transform(emptyToUndefined) @IsOptional()
  @Matches(/^rediss?:\/\/[^\s]*$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @Transform(emptyToUndefined) @IsOptional()
  @Matches(/^[A-Za-z0-9:_.-]{1,64}$/, { message: 'must be 1-64 characters of letters, digits and : _ . -' })
  REDIS_KEY_PREFIX = 'qr:';

  @Transform(emptyToUndefined) @IsOptional() @IsString() @MinLength(16, { message: 'must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  @Transform(toInt) @IsInt({ message: 'must be a positive integer' }) @Min(1) @Max(1_000_000)
  RATE_LIMIT_PER_MINUTE = 120;

  @Transform(toInt) @IsInt({ message: 'must be a number of seconds (0 = off)' }) @Min(0) @Max(3600)
  SEARCH_CACHE_SECONDS = 60;

  @Transform(({ value }) => (value === undefined || value === '' || value === 'false' ? 0 : value === 'true' ? 1 : toInt({ value })))
  @IsInt({ message: 'must be a proxy hop count (0 = off)' }) @Min(0) @Max(10)
  TRUST_PROXY = 0;

  @Transform(emptyToUndefined) @IsOptional() @IsIn(LOG_LEVELS as unknown as string[], { message: `must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL: LogLevel = 'info';
}

/** Typed configuration of the running service. */
export interface AppConfig {
  port: number;
  baseUrl: string;
  redirectUrl: string;
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  /** Prefix of every Redis key, so deployments (or test apps) sharing one Redis never mix data. */
  redisKeyPrefix: string;
  adminToken?: string;
  rateLimitPerMinute: number;
  /** How long search totals and pages are kept (they are also dropped at the account's next write); 0 = off. */
  searchCacheSeconds: number;
  trustProxy: number;
  logLevel: LogLevel;
}

const ENV_NAMES = [
  'PORT', 'BASE_URL', 'REDIRECT_URL', 'DATABASE_URL', 'DATA_DIR', 'REDIS_URL', 'REDIS_KEY_PREFIX',
  'ADMIN_TOKEN', 'RATE_LIMIT_PER_MINUTE', 'SEARCH_CACHE_SECONDS', 'TRUST_PROXY', 'LOG_LEVEL',
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
    port: vars.PORT,
    baseUrl,
    redirectUrl: trimSlash(vars.REDIRECT_URL ?? baseUrl),
    databaseUrl: vars.DATABASE_URL,
    dataDir: vars.DATA_DIR,
    redisUrl: vars.REDIS_URL,
    redisKeyPrefix: vars.REDIS_KEY_PREFIX,
    adminToken: vars.ADMIN_TOKEN,
    rateLimitPerMinute: vars.RATE_LIMIT_PER_MINUTE,
    searchCacheSeconds: vars.SEARCH_CACHE_SECONDS,
    trustProxy: vars.TRUST_PROXY,
    logLevel: vars.LOG_LEVEL,
  };
}

/** Injection token of the AppConfig provider. */
export const APP_CONFIG = Symbol('APP_CONFIG');
