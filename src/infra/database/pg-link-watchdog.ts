import { Client, type ClientConfig, Pool, type PoolConfig } from 'pg';

/**
 * Error of a query whose connection was cut because the link to PostgreSQL is dead or the query
 * outran its budget. Recognised as "database unavailable" (503), like a refused connection.
 */
export class DatabaseLinkError extends Error {
  readonly code = 'EDBLINK';
}

/** The parts of pg's Connection the watchdog listens to (its socket, replaced by a TLS upgrade). */
interface ConnectionEvents {
  stream: { on(event: 'data', listener: () => void): unknown };
  on(event: 'sslconnect', listener: () => void): unknown;
}

/** A pg client that knows whether it has a query out, and since when. */
export class WatchedClient extends Client {
  /** When the oldest unanswered query was sent, or null while the client has none. */
  busySince: number | null = null;
  /** The start of the last query sent, for the log when its link is cut. */
  lastQuery = '';
  /** Between the pool's acquire and release (a transaction may be idle between statements). */
  checkedOut = false;
  /** When bytes last came in from the server: a long answer still being read is not a lost one. */
  lastDataAt = 0;

  constructor(config?: string | (ClientConfig & { linkConnectTimeoutMillis?: number })) {
    // The pool's connectionTimeoutMillis bounds the wait for a free connection; opening one gets its own, shorter bound.
    super(
      typeof config === 'object' && config.linkConnectTimeoutMillis
        ? { ...config, connectionTimeoutMillis: config.linkConnectTimeoutMillis }
        : config,
    );
    this.on('drain', () => {
      this.busySince = null;
    });
    const connection = (this as unknown as { connection: ConnectionEvents }).connection;
    const watch = () => connection.stream.on('data', () => (this.lastDataAt = Date.now()));
    watch();
    connection.on('sslconnect', watch);
  }

  override query: Client['query'] = ((...args: unknown[]) => {
    this.busySince ??= Date.now();
    const [query] = args as [string | { text?: string } | undefined];
    this.lastQuery = (typeof query === 'string' ? query : (query?.text ?? 'COPY')).slice(0, 120);
    return (Client.prototype.query as (...queryArgs: unknown[]) => unknown).apply(this, args);
  }) as Client['query'];

  /** The PostgreSQL backend serving this connection (from the start-up handshake). */
  get backendPid(): number | null {
    return (this as unknown as { processID?: number | null }).processID ?? null;
  }

  /** Cuts the connection: its pending query fails with `reason`, and the pool drops the client. */
  cut(reason: string): void {
    const stream = (this as unknown as { connection?: { stream?: { destroy(error?: Error): void } } }).connection?.stream;
    stream?.destroy(new DatabaseLinkError(reason));
  }
}

export interface LinkWatchdogOptions {
  /** Where the probe connects (a fresh connection each time: an old one may be dead too). */
  connectionString: string;
  /** A query unanswered this long makes the watchdog look at its link. */
  suspectAfterMs: number;
  /** A query unanswered this long is cut whatever its link says: the statement timeout should have ended it. */
  hardLimitMs: number;
  /** The probe's own budget (connect and query). */
  probeTimeoutMs: number;
  onCut?: (reason: string) => void;
}

const TICK_MS = 100;
/** While the database is known unreachable, one connection attempt goes through this often. */
const TRIAL_INTERVAL_MS = 500;
/** A backend that finished our query this long ago, while we still wait for its answer, sent it into a dead link. */
const ANSWER_LOST_AFTER_MS = 300;

/**
 * Finds dead links to PostgreSQL within about a second, without capping how long a query may
 * legitimately run. TCP alone notices a silently dropped connection (a NAT or firewall that lost
 * its state, a failover) only after many minutes, and a client-side timeout short enough to notice
 * in time would cut slow but healthy queries. So: a query unanswered for `suspectAfterMs` is looked
 * up from a fresh connection in pg_stat_activity. Its backend still working on it means a slow
 * query (left alone until `hardLimitMs`); a backend that finished long ago or is gone means the
 * answer was lost in a dead link, and no fresh connection means the database is unreachable: the
 * connection is cut, its query fails at once (503), and the links idle in the pool, likely dead the
 * same way, are closed too so the next queries open new ones.
 */
export class PgLinkWatchdog {
  private readonly clients = new Set<WatchedClient>();
  private readonly timer: NodeJS.Timeout;
  private probing = false;
  /** Since when the database is known unreachable (a probe failed), until a connection opens again. */
  private unreachableSince: number | null = null;
  private lastTrial = 0;

  constructor(
    private readonly pool: Pool,
    private readonly options: LinkWatchdogOptions,
  ) {
    pool.on('connect', (client) => {
      this.clients.add(client as unknown as WatchedClient);
      this.unreachableSince = null;
    });
    pool.on('remove', (client) => this.clients.delete(client as unknown as WatchedClient));
    pool.on('acquire', (client) => ((client as unknown as WatchedClient).checkedOut = true));
    // Any answer the database gives ends the unreachable state (the trial's, or a query in flight).
    pool.on('release', (error: Error | undefined) => {
      if (!error) this.unreachableSince = null;
    });
    pool.on('release', (_error: Error | undefined, client) => ((client as unknown as WatchedClient).checkedOut = false));
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * Whether a request for a connection should fail at once: the database was found unreachable and
   * has not answered since. One request in TRIAL_INTERVAL_MS still goes through, as a trial: its
   * connection, once open, ends this state.
   */
  failFast(now = Date.now()): boolean {
    if (this.unreachableSince === null || now - this.lastTrial >= TRIAL_INTERVAL_MS) {
      if (this.unreachableSince !== null) this.lastTrial = now;
      return false;
    }
    return true;
  }

  private tick(now = Date.now()): void {
    const suspects: WatchedClient[] = [];
    const overdue: number[] = [];
    for (const client of this.clients) {
      if (client.busySince === null) continue;
      const waited = now - client.busySince;
      if (waited >= this.options.hardLimitMs) {
        if (client.backendPid !== null) overdue.push(client.backendPid);
        this.cut(client, `no answer within ${this.options.hardLimitMs} ms`);
      } else if (waited >= this.options.suspectAfterMs) suspects.push(client);
    }
    // The server's statement timeout should have answered long ago: its backend is beyond reach.
    if (overdue.length > 0) void this.terminate(overdue);
    if (suspects.length > 0 && !this.probing) {
      this.probing = true;
      void this.probe(suspects).finally(() => (this.probing = false));
    }
  }

  private async probe(suspects: WatchedClient[]): Promise<void> {
    const sent = new Map(suspects.map((client) => [client, client.busySince]));
    const timeout = this.options.probeTimeoutMs;
    const probe = new Client({
      connectionString: this.options.connectionString,
      connectionTimeoutMillis: timeout,
      query_timeout: timeout,
      statement_timeout: timeout,
    });
    probe.on('error', () => undefined);
    let backends: Map<number, { state: string | null; idleForMs: number }>;
    let askedAt: number;
    try {
      await probe.connect();
      askedAt = Date.now();
      const { rows } = await probe.query<{ pid: number; state: string | null; idle_ms: number | null }>(
        `SELECT pid, state, (extract(epoch FROM clock_timestamp() - state_change) * 1000)::float8 AS idle_ms
         FROM pg_stat_activity WHERE pid = ANY($1::int[])`,
        [suspects.map((client) => client.backendPid)],
      );
      backends = new Map(rows.map((row) => [row.pid, { state: row.state, idleForMs: row.idle_ms ?? 0 }]));
    } catch (error) {
      void probe.end().catch(() => undefined);
      // Suspects that got their answers meanwhile show the database is there (the probe was only slow).
      const stillWaiting = suspects.filter((client) => client.busySince !== null && client.busySince === sent.get(client));
      if (stillWaiting.length === 0) return;
      this.unreachableSince ??= Date.now();
      // Every query out now waits on the same unreachable database, however recent: all fail at once.
      this.cutAll(`database unreachable (${(error as Error).message})`);
      return;
    }
    const orphans: number[] = [];
    let lost = false;
    for (const client of suspects) {
      if (client.busySince !== sent.get(client)) continue;
      const pid = client.backendPid;
      const backend = pid === null ? undefined : backends.get(pid);
      if (backend?.state === 'active') continue;
      if (backend && backend.idleForMs < ANSWER_LOST_AFTER_MS) continue;
      // Bytes of this query's answer came in after the backend finished (at the latest askedAt −
      // idle): it is arriving, only slowly read (a long result on a busy process), not lost. (An
      // idle backend may also be one the query never reached: then nothing came since it was sent.)
      if (backend && client.lastDataAt > Math.max(askedAt - backend.idleForMs, sent.get(client) ?? 0)) continue;
      if (pid !== null && backend) orphans.push(pid);
      lost = true;
      this.cut(
        client,
        backend ? `answer lost on a dead link (backend ${backend.state ?? 'gone'} for ${Math.round(backend.idleForMs)} ms)` : 'its backend is gone',
      );
    }
    if (!lost) {
      void probe.end().catch(() => undefined);
      return;
    }
    void probe.end().catch(() => undefined);
    if (orphans.length > 0) await this.terminate(orphans);
    this.closeIdleLinks();
  }

  /**
   * Ends the backends of cut links. The server does not know their link died: a backend left idle
   * in a transaction would hold its locks (and hold up every write of the same rows) until the
   * server's own timeout. Best effort: a database that cannot be reached ends them itself later.
   */
  private async terminate(pids: number[]): Promise<void> {
    const timeout = this.options.probeTimeoutMs;
    const session = new Client({
      connectionString: this.options.connectionString,
      connectionTimeoutMillis: timeout,
      query_timeout: timeout,
      statement_timeout: timeout,
    });
    session.on('error', () => undefined);
    try {
      await session.connect();
      await session.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
    } catch (error) {
      this.options.onCut?.(`backends ${pids.join(', ')} of cut links not ended: ${(error as Error).message}`);
    } finally {
      void session.end().catch(() => undefined);
    }
  }

  /** Cuts every link, busy or idle (the database is gone, or the pool closes). */
  cutAll(reason: string): void {
    for (const client of [...this.clients]) if (client.busySince !== null) this.cut(client, reason);
    this.closeIdleLinks();
  }

  /** Links in the pool and not in use were opened before the failure and are likely dead as well. */
  private closeIdleLinks(): void {
    let closed = 0;
    for (const client of this.clients) {
      if (client.checkedOut || client.busySince !== null) continue;
      this.clients.delete(client);
      client.cut('Database link cut: closed with the links that died');
      closed++;
    }
    if (closed > 0) this.options.onCut?.(`closed ${closed} idle links opened before the failure`);
  }

  private cut(client: WatchedClient, reason: string): void {
    this.clients.delete(client);
    this.options.onCut?.(`${reason} (query: ${client.lastQuery.replace(/\s+/g, ' ')})`);
    client.cut(`Database link cut: ${reason}`);
  }
}

/**
 * A pool of watched clients and its watchdog. `connectionTimeoutMillis` bounds the wait for a free
 * connection (a busy pool is not a dead database); `linkConnectTimeoutMillis` bounds opening one.
 * While the watchdog knows the database unreachable, asking for a connection fails at once.
 */
export function watchedPool(
  config: PoolConfig & { connectionString: string; linkConnectTimeoutMillis: number },
  watch: Omit<LinkWatchdogOptions, 'connectionString'>,
): { pool: Pool; watchdog: PgLinkWatchdog } {
  const pool = new Pool({ ...config, Client: WatchedClient });
  const watchdog = new PgLinkWatchdog(pool, { ...watch, connectionString: config.connectionString });
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, client?: unknown, done?: unknown) => void,
  ) => Promise<unknown> | undefined;
  (pool as unknown as { connect: typeof connect }).connect = (callback) => {
    if (!watchdog.failFast()) return connect(callback);
    const error = new DatabaseLinkError('Database link cut: the database is unreachable');
    if (callback) return void process.nextTick(() => callback(error));
    return Promise.reject(error);
  };
  return { pool, watchdog };
}
