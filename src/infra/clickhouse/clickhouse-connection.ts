import { type ClickHouseClient, ClickHouseLogLevel, createClient } from '@clickhouse/client';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { clickHouseSchema } from './clickhouse-schema';

/** An insert of a few hundred thousand rows takes seconds; a stalled one is abandoned (and retried) after this. */
const INSERT_TIMEOUT_MS = 30_000;
/** ClickHouse's max_query_size unless a statement sets it: 256 KiB. */
const DEFAULT_MAX_QUERY_BYTES = 262_144;

/** Where CLICKHOUSE_URL points: the HTTP interface's origin, the credentials in it, and the database its path names. */
export interface ClickHouseTarget {
  origin: string;
  username: string;
  password: string;
  database: string;
}

export function clickHouseTarget(url: string): ClickHouseTarget {
  const parsed = new URL(url);
  const database = parsed.pathname.replace(/^\/|\/$/g, '') || 'default';
  return {
    origin: parsed.origin,
    username: decodeURIComponent(parsed.username) || 'default',
    password: decodeURIComponent(parsed.password),
    database,
  };
}

/**
 * The app's ClickHouse, over its HTTP interface (@clickhouse/client), when CLICKHOUSE_URL is set.
 * Statements name their tables with the database (`qr.scan_events`), so the database can be
 * created by the app itself; the client's own log is off (failures reach the callers, which log
 * them once, as warnings). Values are never interpolated unchecked: ClickHouse 18.16 has no query
 * parameters, so the queries inline only UUIDs and integers they have checked (clickhouse-literals.ts).
 */
@Injectable()
export class ClickHouseConnection implements OnApplicationShutdown {
  private readonly client: ClickHouseClient | null;
  /** The database, quoted for statements. */
  readonly database: string;
  private schemaReady = false;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (!config.clickhouse) {
      this.client = null;
      this.database = '';
      return;
    }
    const target = clickHouseTarget(config.clickhouse.url);
    this.database = `\`${target.database}\``;
    this.client = createClient({
      url: target.origin,
      username: target.username,
      password: target.password,
      request_timeout: INSERT_TIMEOUT_MS,
      max_open_connections: 8,
      log: { level: ClickHouseLogLevel.OFF },
    });
  }

  get configured(): boolean {
    return this.client !== null;
  }

  /**
   * Rows of a SELECT, as JSON objects (ClickHouse quotes 64-bit integers: callers convert). A
   * statement longer than the server's default limit (256 KiB: a long list of codes) raises the
   * limit for itself.
   */
  async select<Row>(statement: string, timeoutMs?: number): Promise<Row[]> {
    const bytes = Buffer.byteLength(statement);
    const result = await this.connected().query({
      query: statement,
      format: 'JSONEachRow',
      abort_signal: timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined,
      clickhouse_settings: bytes > DEFAULT_MAX_QUERY_BYTES ? { max_query_size: String(bytes + 1) } : undefined,
    });
    return result.json<Row>();
  }

  /** Creates the schema (clickhouse-schema.ts, idempotent) once per process, before the workers' first statement. */
  async ensureSchema(): Promise<void> {
    if (this.schemaReady) return;
    for (const statement of clickHouseSchema(this.database)) await this.command(statement);
    this.schemaReady = true;
  }

  /** A statement without rows (DDL). */
  async command(statement: string): Promise<void> {
    await this.connected().command({ query: statement });
  }

  /** Rows into `table` of the database, in one INSERT (JSONEachRow). */
  async insert(table: string, rows: readonly object[]): Promise<void> {
    await this.connected().insert({ table: `${this.database}.${table}`, values: rows, format: 'JSONEachRow' });
  }

  /** Resolves when the server answers /ping within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<void> {
    const result = await Promise.race([
      this.connected().ping(),
      new Promise<{ success: false; error: Error }>((resolve) =>
        setTimeout(() => resolve({ success: false, error: new Error(`no answer within ${timeoutMs} ms`) }), timeoutMs).unref(),
      ),
    ]);
    if (!result.success) throw result.error;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client?.close();
  }

  private connected(): ClickHouseClient {
    if (!this.client) throw new Error('ClickHouse is not configured (CLICKHOUSE_URL)');
    return this.client;
  }
}
