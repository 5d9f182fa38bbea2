import { ConfigError, loadAppConfig } from './app-config';

describe('loadAppConfig', () => {
  it('uses the embedded defaults when nothing is set', () => {
    expect(loadAppConfig({})).toEqual({
      port: 3000,
      baseUrl: 'http://localhost:3000',
      redirectUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      dataDir: './data',
      redisUrl: undefined,
      redisKeyPrefix: 'qr:',
      adminToken: undefined,
      rateLimitPerMinute: 120,
      searchCacheSeconds: 60,
      trustProxy: 0,
      logLevel: 'info',
    });
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
