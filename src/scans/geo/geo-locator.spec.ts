import { copyFileSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWhen } from '../../../test/support/environment';
import { HAS_MMDB_WRITER, TEST_PLACES, writeTestMmdb } from '../../../test/support/geo/test-mmdb';
import { BUNDLED_GEO_DATABASE, countryOf, GeoLocator, type GeoLocatorOptions, UNKNOWN_PLACE } from './geo-locator';

const quiet = { warn: () => {}, info: () => {} };

function openLocator(options: Partial<GeoLocatorOptions> & Pick<GeoLocatorOptions, 'databasePath'>) {
  const warnings: string[] = [];
  const locator = GeoLocator.open({ countryHeader: null, watchIntervalMs: 0, ...quiet, warn: (line) => warnings.push(line), ...options });
  return { locator, warnings };
}

const at = (ip: string, headers: Record<string, string> = {}) => ({ ip, headers });

describe('countryOf (a header value)', () => {
  it.each([
    ['DE', 'DE'],
    ['de', 'DE'],
    [['fr', 'de'], 'FR'],
    ['XX', null],
    ['ZZ', null],
    ['T1', null],
    ['DEU', null],
    ['', null],
    [undefined, null],
    ['1A', null],
    ['ÄÖ', null],
  ])('%j → %j', (value, expected) => {
    expect(countryOf(value)).toBe(expected);
  });
});

describe('GeoLocator with the bundled database', () => {
  const { locator, warnings } = openLocator({ databasePath: require.resolve(BUNDLED_GEO_DATABASE) });
  afterAll(() => locator.close());

  it.each([
    ['8.8.8.8', 'US'],
    ['::ffff:8.8.8.8', 'US'],
    ['2001:4860:4860::8888', 'US'],
  ])('answers the well-known public address %s with its country', (ip, country) => {
    expect(warnings).toEqual([]);
    expect(locator.locate(at(ip))).toEqual({ country, city: null });
  });

  it.each(['127.0.0.1', '10.1.2.3', '::1', 'not-an-ip', ''])('knows no place for %j', (ip) => {
    expect(locator.locate(at(ip))).toBe(UNKNOWN_PLACE);
  });
});

describeWhen(HAS_MMDB_WRITER)('GeoLocator with a test database (libmaxmind-db-writer-perl)', () => {
  let dir: string;
  let cityDatabase: string;
  let countryDatabase: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'qr-geo-spec-'));
    cityDatabase = writeTestMmdb('city', join(dir, 'city.mmdb'));
    countryDatabase = writeTestMmdb('country', join(dir, 'country.mmdb'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(TEST_PLACES.city)('a city database: %s is %s, %s', (ip, country, city) => {
    const { locator, warnings } = openLocator({ databasePath: cityDatabase });
    expect(warnings).toEqual([]);
    expect(locator.databaseType).toBe('GeoLite2-City');
    expect(locator.locate(at(ip))).toEqual({ country, city });
  });

  it.each([28, 32])('a city database with %d-bit records (GeoLite2 files have 28): every place found', (recordSize) => {
    const { locator } = openLocator({ databasePath: writeTestMmdb('city', join(dir, `city-${recordSize}.mmdb`), recordSize) });
    expect(TEST_PLACES.city.map(([ip]) => locator.locate(at(ip)))).toEqual(TEST_PLACES.city.map(([, country, city]) => ({ country, city })));
    expect(locator.locate(at('203.0.114.1'))).toBe(UNKNOWN_PLACE);
  });

  it.each(TEST_PLACES.country)('a country database shaped as the bundled one: %s is %s', (ip, country) => {
    const { locator } = openLocator({ databasePath: countryDatabase });
    expect(locator.locate(at(ip))).toEqual({ country, city: null });
  });

  it('finds IPv4 clients of a dual-stack socket (IPv4-mapped IPv6) and nothing outside its networks', () => {
    const { locator } = openLocator({ databasePath: cityDatabase });
    expect(locator.locate(at('::ffff:203.0.113.7'))).toEqual({ country: 'DE', city: 'Berlin' });
    expect(locator.locate(at('203.0.114.1'))).toBe(UNKNOWN_PLACE);
    expect(locator.locate(at('2001:db8:4::1'))).toBe(UNKNOWN_PLACE);
  });

  describe('the trusted country header', () => {
    const options = () => ({ databasePath: cityDatabase, countryHeader: 'CF-IPCountry' });

    it.each([
      ['a country the database agrees with: its city too', '203.0.113.7', 'de', { country: 'DE', city: 'Berlin' }],
      ['another country than the database: no city', '203.0.113.7', 'AT', { country: 'AT', city: null }],
      ['a country for an address the database lacks', '10.0.0.1', 'SE', { country: 'SE', city: null }],
      ['XX (unknown): the database answers', '2001:db8:1::5', 'XX', { country: 'JP', city: 'Tokyo' }],
      ['T1 (Tor): the database answers', '198.51.100.1', 'T1', { country: 'FR', city: 'Paris' }],
    ])('%s', (_label, ip, header, expected) => {
      const { locator } = openLocator(options());
      expect(locator.locate(at(ip, { 'cf-ipcountry': header }))).toEqual(expected);
    });

    it('is not read when none is configured', () => {
      const { locator } = openLocator({ databasePath: cityDatabase });
      expect(locator.locate(at('10.0.0.1', { 'cf-ipcountry': 'SE' }))).toBe(UNKNOWN_PLACE);
    });
  });

  it.each([
    ['is missing', (path: string) => rmSync(path, { force: true })],
    ['is empty', (path: string) => writeFileSync(path, '')],
    ['is no MMDB', (path: string) => writeFileSync(path, Buffer.alloc(4096, 7))],
  ])('the file %s: one warning, no place from it, the header still believed', (_label, spoil) => {
    const path = join(dir, 'spoilt.mmdb');
    spoil(path);
    const { locator, warnings } = openLocator({ databasePath: path, countryHeader: 'CF-IPCountry' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);
    expect(locator.databaseType).toBeNull();
    expect(locator.locate(at('203.0.113.7'))).toBe(UNKNOWN_PLACE);
    expect(locator.locate(at('203.0.113.7', { 'cf-ipcountry': 'PT' }))).toEqual({ country: 'PT', city: null });
  });

  describe('reload when the file changes', () => {
    const settle = async (locator: GeoLocator, until: () => boolean) => {
      for (let i = 0; i < 200 && !until(); i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await locator.settled();
      }
    };

    it('takes a new file written in place or renamed over it, and keeps the loaded one when the new one is corrupt or removed', async () => {
      const path = writeTestMmdb('city', join(dir, 'watched.mmdb'));
      const infos: string[] = [];
      const { locator, warnings } = openLocator({ databasePath: path, watchIntervalMs: 20, info: (line) => infos.push(line) });
      try {
        expect(locator.locate(at('203.0.113.7'))).toEqual({ country: 'DE', city: 'Berlin' });

        // geoipupdate's way: a new file renamed over the old one.
        renameSync(writeTestMmdb('city-v2', join(dir, 'watched.next.mmdb')), path);
        await settle(locator, () => locator.locate(at('203.0.113.7')).country === 'AT');
        expect(locator.locate(at('203.0.113.7'))).toEqual({ country: 'AT', city: 'Vienna' });

        writeFileSync(path, 'not a database at all');
        await settle(locator, () => warnings.length > 0);
        expect(warnings).toHaveLength(1);
        expect(locator.locate(at('203.0.113.7'))).toEqual({ country: 'AT', city: 'Vienna' });

        rmSync(path);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(locator.locate(at('2001:db8:1::5'))).toEqual({ country: 'JP', city: 'Tokyo' });

        // Written in place, with a new modification time.
        copyFileSync(cityDatabase, path);
        utimesSync(path, new Date(), new Date(Date.now() + 5000));
        await settle(locator, () => locator.locate(at('203.0.113.7')).country === 'DE');
        expect(locator.locate(at('203.0.113.7'))).toEqual({ country: 'DE', city: 'Berlin' });
        expect(warnings).toHaveLength(1);
        expect(infos.length).toBe(3);
      } finally {
        locator.close();
      }
    });

    it('loads a file that was missing at start once it appears', async () => {
      const path = join(dir, 'later.mmdb');
      const { locator, warnings } = openLocator({ databasePath: path, watchIntervalMs: 20 });
      try {
        expect(warnings).toHaveLength(1);
        expect(locator.locate(at('198.51.100.1'))).toBe(UNKNOWN_PLACE);
        writeTestMmdb('city', path);
        await settle(locator, () => locator.databaseType !== null);
        expect(locator.locate(at('198.51.100.1'))).toEqual({ country: 'FR', city: 'Paris' });
      } finally {
        locator.close();
      }
    });
  });
});
