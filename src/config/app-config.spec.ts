import { ConfigError, loadAppConfig } from './app-config';

describe('loadAppConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    expect(loadAppConfig({})).toEqual({
      role: 'all',
      port: 3000,
      baseUrl: 'http://localhost:3000',
      redirectUrl: 'http://localhost:3000',
      gs1PathPrefix: '/gs1',
      databaseUrl: undefined,
      dataDir: './data',
      redisUrl: undefined,
      redisKeyPrefix: 'qr:',
      adminToken: undefined,
      rateLimitPerMinute: 120,
      searchCacheSeconds: 60,
      auditRetentionDays: 365,
      scanRetentionDays: undefined,
      trustProxy: 0,
      logLevel: 'info',
      embeddedDatabaseDir: 'data/pglite',
      scanSpillDir: 'data/scan-spill',
      database: {
        readTimeoutMs: 5000,
        writeTimeoutMs: 10_000,
        scanStoreTimeoutMs: 10_000,
        migrationTimeoutMs: 600_000,
        connectTimeoutMs: 1500,
        linkCheckMs: 500,
      },
      http: { requestTimeoutMs: 10_000, headersTimeoutMs: 5000, keepAliveTimeoutMs: 5000 },
      shutdownTimeoutMs: 10_000,
      shutdownGraceMs: 5000,
      bootstrapKey: true,
      webhooks: { allowHttp: false, allowPrivate: false, secretsKey: undefined },
      geo: { database: undefined, countryHeader: undefined },
      domains: { dnsResolvers: [], dnsTimeoutMs: 3000, tlsAskEnabled: false },
      clickhouse: undefined,
    });
  });

  it('reads the scan retention (unset: forever) and refuses one that is not a whole number of days from 1 to 36500', () => {
    expect(loadAppConfig({ SCAN_RETENTION_DAYS: '400' }).scanRetentionDays).toBe(400);
    expect(loadAppConfig({ SCAN_RETENTION_DAYS: '' }).scanRetentionDays).toBeUndefined();
    for (const bad of ['0', '36501', '1.5', 'forever']) expect(() => loadAppConfig({ SCAN_RETENTION_DAYS: bad })).toThrow(/SCAN_RETENTION_DAYS/);
  });

  it('reads the geo database and the country header, and refuses a header name that is not one', () => {
    expect(loadAppConfig({ GEOIP_DB: '/data/GeoLite2-City.mmdb', GEO_COUNTRY_HEADER: 'CF-IPCountry' }).geo).toEqual({
      database: '/data/GeoLite2-City.mmdb',
      countryHeader: 'CF-IPCountry',
    });
    expect(() => loadAppConfig({ GEO_COUNTRY_HEADER: 'CF IPCountry' })).toThrow(/GEO_COUNTRY_HEADER/);
    expect(() => loadAppConfig({ GEO_COUNTRY_HEADER: 'X-Country:' })).toThrow(/GEO_COUNTRY_HEADER/);
  });

  it('reads the DNS resolvers (addresses with optional ports) and refuses names or junk', () => {
    expect(loadAppConfig({ DNS_RESOLVERS: '127.0.0.1:5353, [::1]:53,9.9.9.9', TLS_ASK_ENABLED: '1' }).domains).toEqual({
      dnsResolvers: ['127.0.0.1:5353', '[::1]:53', '9.9.9.9'],
      dnsTimeoutMs: 3000,
      tlsAskEnabled: true,
    });
    expect(() => loadAppConfig({ DNS_RESOLVERS: 'dns.google' })).toThrow(/DNS_RESOLVERS/);
    expect(() => loadAppConfig({ DNS_TIMEOUT_MS: '10' })).toThrow(/DNS_TIMEOUT_MS/);
  });

  it('reads ClickHouse settings only with CLICKHOUSE_URL, and refuses a URL with a query or a nested path', () => {
    expect(loadAppConfig({ CLICKHOUSE_MAX_LAG_SECONDS: '5' }).clickhouse).toBeUndefined();
    expect(loadAppConfig({ CLICKHOUSE_URL: 'http://u:p@clickhouse:8123/qr', CLICKHOUSE_MAX_LAG_SECONDS: '5' }).clickhouse).toEqual({
      url: 'http://u:p@clickhouse:8123/qr',
      maxLagSeconds: 5,
      queryTimeoutMs: 5000,
    });
    expect(loadAppConfig({ CLICKHOUSE_URL: 'https://clickhouse.example' }).clickhouse?.maxLagSeconds).toBe(60);
    for (const url of ['clickhouse:8123', 'http://clickhouse:8123/qr/x', 'http://clickhouse:8123/?database=qr', 'http://click house:8123'])
      expect(() => loadAppConfig({ CLICKHOUSE_URL: url })).toThrow(/CLICKHOUSE_URL: must be an http\(s\) URL/);
    expect(() => loadAppConfig({ CLICKHOUSE_URL: 'http://clickhouse:8123', CLICKHOUSE_MAX_LAG_SECONDS: '0' })).toThrow(/CLICKHOUSE_MAX_LAG_SECONDS/);
  });

  it('reads the webhook switches and refuses anything but 1/0/true/false', () => {
    expect(loadAppConfig({ WEBHOOK_ALLOW_HTTP: '1', WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks).toEqual({
      allowHttp: true,
      allowPrivate: true,
      secretsKey: undefined,
    });
    expect(() => loadAppConfig({ WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(/WEBHOOK_ALLOW_PRIVATE: must be 1 or 0/);
    expect(() => loadAppConfig({ WEBHOOK_SECRETS_KEY: 'short' })).toThrow(/WEBHOOK_SECRETS_KEY/);
  });

  it('reads the database budgets, HTTP limits and the shutdown bound', () => {
    const config = loadAppConfig({
      DB_READ_TIMEOUT_MS: '2000',
      DB_WRITE_TIMEOUT_MS: '3000',
      DB_SCAN_STORE_TIMEOUT_MS: '4000',
      DB_MIGRATION_TIMEOUT_MS: '0',
      DB_CONNECT_TIMEOUT_MS: '900',
      DB_LINK_CHECK_MS: '500',
      HTTP_REQUEST_TIMEOUT_MS: '7000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '4000',
      SHUTDOWN_TIMEOUT_MS: '8000',
      SHUTDOWN_GRACE_MS: '6000',
    });
    expect(config).toMatchObject({
      database: {
        readTimeoutMs: 2000,
        writeTimeoutMs: 3000,
        scanStoreTimeoutMs: 4000,
        migrationTimeoutMs: 0,
        connectTimeoutMs: 900,
        linkCheckMs: 500,
      },
      http: { requestTimeoutMs: 7000, headersTimeoutMs: 5000, keepAliveTimeoutMs: 4000 },
      shutdownTimeoutMs: 8000,
      // At most half the shutdown bound: the rest is for the server, the scans and the pools.
      shutdownGraceMs: 4000,
    });
    expect(() => loadAppConfig({ DB_READ_TIMEOUT_MS: '50' })).toThrow(/DB_READ_TIMEOUT_MS/);
  });

  it.each(['all', 'api', 'worker'])('reads ROLE=%s', (role) => {
    expect(loadAppConfig({ ROLE: role }).role).toBe(role);
  });

  it('refuses an unknown ROLE, naming the three values', () => {
    expect(() => loadAppConfig({ ROLE: 'workers' })).toThrow('Invalid environment variable ROLE: must be one of all, api, worker');
  });

  it.each([
    ['the embedded database', {}, true],
    ['the embedded database with BOOTSTRAP_KEY=0', { BOOTSTRAP_KEY: '0' }, false],
    ['PostgreSQL', { DATABASE_URL: 'postgresql://db/qr' }, false],
    ['PostgreSQL with BOOTSTRAP_KEY=1', { DATABASE_URL: 'postgresql://db/qr', BOOTSTRAP_KEY: '1' }, true],
    ['PostgreSQL with BOOTSTRAP_KEY empty', { DATABASE_URL: 'postgresql://db/qr', BOOTSTRAP_KEY: '' }, false],
  ])('creates a first key on %s: %s', (_case, env, expected) => {
    expect(loadAppConfig(env).bootstrapKey).toBe(expected);
  });

  it('reads every variable', () => {
    const config = loadAppConfig({
      PORT: '8080',
      BASE_URL: 'https://api.example.com/',
      REDIRECT_URL: 'https://qr.example.com',
      DATABASE_URL: 'postgresql://u:p@db:5432/qr',
      DATA_DIR: '/var/lib/qr',
      REDIS_URL: 'redis://cache:6379',
      ADMIN_TOKEN: 'a-very-long-admin-token',
      RATE_LIMIT_PER_MINUTE: '30',
      SEARCH_CACHE_SECONDS: '0',
      TRUST_PROXY: '1',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({
      port: 8080,
      baseUrl: 'https://api.example.com',
      redirectUrl: 'https://qr.example.com',
      databaseUrl: 'postgresql://u:p@db:5432/qr',
      dataDir: '/var/lib/qr',
      redisUrl: 'redis://cache:6379',
      adminToken: 'a-very-long-admin-token',
      rateLimitPerMinute: 30,
      searchCacheSeconds: 0,
      trustProxy: 1,
      logLevel: 'warn',
    });
  });

  it('defaults REDIRECT_URL to BASE_URL', () => {
    expect(loadAppConfig({ BASE_URL: 'https://x.io' }).redirectUrl).toBe('https://x.io');
  });

  it('treats empty strings as unset', () => {
    expect(loadAppConfig({ DATABASE_URL: '', REDIS_URL: '' })).toMatchObject({ databaseUrl: undefined, redisUrl: undefined });
  });

  it.each([
    ['BOOTSTRAP_KEY', 'yes', /BOOTSTRAP_KEY/],
    ['PORT', 'abc', /PORT/],
    ['PORT', '70000', /PORT/],
    ['PORT', '3.5', /PORT/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: must be a postgresql/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL/],
    ['REDIS_URL', 'http://x', /REDIS_URL/],
    ['BASE_URL', 'ftp://x', /BASE_URL/],
    ['BASE_URL', 'https://x.io?a=1', /BASE_URL/],
    ['ADMIN_TOKEN', 'short', /ADMIN_TOKEN: must be at least 16/],
    ['SEARCH_CACHE_SECONDS', '-1', /SEARCH_CACHE_SECONDS/],
    ['SEARCH_CACHE_SECONDS', '3601', /SEARCH_CACHE_SECONDS/],
    ['REDIS_KEY_PREFIX', 'has space', /REDIS_KEY_PREFIX/],
    ['RATE_LIMIT_PER_MINUTE', '0', /RATE_LIMIT_PER_MINUTE/],
    ['TRUST_PROXY', 'yes', /TRUST_PROXY/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL: must be one of/],
  ])('rejects %s=%s with one line naming the variable', (name, value, message) => {
    expect(() => loadAppConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadAppConfig({ [name]: value })).toThrow(message);
    try {
      loadAppConfig({ [name]: value });
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('accepts TRUST_PROXY=true as one hop', () => {
    expect(loadAppConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
  });
});
