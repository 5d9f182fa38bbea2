import { readFileSync, type Stats, unwatchFile, watchFile } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Reader, type Response } from 'maxmind';
import { MmdbSearchTree } from './mmdb-search-tree';

/** Where a scan came from, as far as it is known: ISO 3166-1 alpha-2 country (upper case) and city name. */
export interface GeoPlace {
  readonly country: string | null;
  readonly city: string | null;
}

/** A scan's place when nothing is known (no database, an address no network holds, a private address). */
export const UNKNOWN_PLACE: GeoPlace = Object.freeze({ country: null, city: null });

/** What a lookup reads of a request: the visitor's address (after TRUST_PROXY) and its headers. */
export interface GeoRequest {
  readonly ip: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface GeoLocatorOptions {
  /** The MMDB file: GEOIP_DB, else the bundled country database (BUNDLED_GEO_DATABASE). */
  databasePath: string;
  /**
   * The header a trusted CDN names the visitor's country in (GEO_COUNTRY_HEADER, e.g. `CF-IPCountry`),
   * or null. Give it only when the service sits behind a trusted proxy (TRUST_PROXY): otherwise
   * any client could claim any country.
   */
  countryHeader: string | null;
  /** How often the file is checked for a change (fs.watchFile polls its stat); 0: never. */
  watchIntervalMs: number;
  /** One line per problem: a missing or unreadable file, a reload that failed. */
  warn: (message: string) => void;
  /** A (re)loaded database. */
  info: (message: string) => void;
}

/** The bundled CC0 country database (IPv4 and IPv6): read from node_modules, so nothing is downloaded at run time. */
export const BUNDLED_GEO_DATABASE = '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb';

/** The records a lookup reads: GeoLite2-City / -Country (`country.iso_code`, `city.names`) and ip-location-db (`country_code`). */
type GeoRecord = Response & {
  country?: { iso_code?: unknown };
  country_code?: unknown;
  city?: { names?: Record<string, unknown> };
};

/** scan_events.city is VARCHAR(128). */
const MAX_CITY_CHARS = 128;
/** Places kept per database, by record (a city database has hundreds of thousands of records; a country one a few hundred). */
const MAX_KEPT_PLACES = 50_000;
const IPV4_MAPPED = '::ffff:';

/** A loaded database: replaced as a whole on reload, so a lookup never mixes two. */
interface LoadedDatabase {
  reader: Reader<GeoRecord>;
  tree: MmdbSearchTree;
  /** The place of each record the tree walk found, decoded by the reader once. */
  places: Map<number, GeoPlace>;
}

/**
 * The country (and, with a city database, the city) of a scan, without Nest and without I/O on a
 * lookup (docs/scans-and-privacy.md#where-a-scan-comes-from). In order:
 * 1. the trusted CDN header (countryHeader) when it names a country (`XX`, Cloudflare's unknown,
 *    and anything that is not two letters do not);
 * 2. the MMDB database, read whole into memory: a walk of its search tree (MmdbSearchTree, no
 *    allocation) finds the address's record, which the `maxmind` package's reader decodes the
 *    first time and whose place is kept.
 * With the header's country and a city database, the city is the database's only when the
 * database agrees on the country. The address is only looked up: nothing here keeps it.
 *
 * The redirect host calls `locate` at most once per scan (VisitFactsReader.placeOf keeps the
 * answer on the Visit), so a caller deciding the answer by country (smart-link rules) and the scan
 * record after the answer share one lookup: call `placeOf(visit)` where the country is needed; the
 * scan record then reuses it.
 *
 * A missing or unreadable file logs one warning and leaves lookups to the header (UNKNOWN_PLACE
 * otherwise): the service starts regardless. The file is watched (fs.watchFile, which survives the
 * rename an updater such as geoipupdate does): a change is read and replaces the database in one
 * step; a changed file that does not read as an MMDB logs a warning and the loaded one stays.
 */
export class GeoLocator {
  private database: LoadedDatabase | null = null;
  private readonly header: string | null;
  private watching = false;
  private reloading: Promise<void> | null = null;

  private constructor(private readonly options: GeoLocatorOptions) {
    this.header = options.countryHeader ? options.countryHeader.toLowerCase() : null;
  }

  /** Reads the database synchronously (a few MB, once at start) and starts watching its file. */
  static open(options: GeoLocatorOptions): GeoLocator {
    const locator = new GeoLocator(options);
    try {
      locator.install(readFileSync(options.databasePath));
    } catch (error) {
      options.warn(`Geo database ${options.databasePath} not loaded (scans carry no country from it): ${(error as Error).message}`);
    }
    locator.watch();
    return locator;
  }

  /** The loaded database's type (`GeoLite2-City`, …), null when none is loaded. */
  get databaseType(): string | null {
    return this.database?.reader.metadata.databaseType ?? null;
  }

  /** The place of one request. Never throws. */
  locate(request: GeoRequest): GeoPlace {
    const claimed = this.header === null ? null : countryOf(request.headers[this.header]);
    const found = this.lookup(request.ip);
    if (claimed === null) return found;
    if (found.city !== null && found.country === claimed) return found;
    return { country: claimed, city: null };
  }

  /** Stops watching the file. */
  close(): void {
    if (this.watching) unwatchFile(this.options.databasePath, this.onChange);
    this.watching = false;
  }

  /** A reload in flight, if any (tests wait for it). */
  settled(): Promise<void> {
    return this.reloading ?? Promise.resolve();
  }

  private lookup(ip: string): GeoPlace {
    const database = this.database;
    if (database === null) return UNKNOWN_PLACE;
    // Node reports IPv4 clients of a dual-stack socket as IPv4-mapped IPv6; the databases hold them as IPv4.
    const address = ip.startsWith(IPV4_MAPPED) && ip.includes('.') ? ip.slice(IPV4_MAPPED.length) : ip;
    const found = database.tree.find(address);
    if (found <= 0) return UNKNOWN_PLACE;
    const kept = database.places.get(found);
    if (kept !== undefined) return kept;
    let place: GeoPlace;
    try {
      const record = database.reader.get(address);
      place = record !== null && typeof record === 'object' ? placeOfRecord(record) : UNKNOWN_PLACE;
    } catch {
      // A database whose tree points outside its data: that address has no place.
      place = UNKNOWN_PLACE;
    }
    if (database.places.size >= MAX_KEPT_PLACES) database.places.clear();
    database.places.set(found, place);
    return place;
  }

  private install(file: Buffer): void {
    // No cache in the reader: it decodes a record only the first time the walk finds it (LoadedDatabase.places).
    const reader = new Reader<GeoRecord>(file, { cache: NO_RECORD_CACHE });
    const tree = new MmdbSearchTree(file, reader.metadata);
    this.database = { reader, tree, places: new Map() };
    const { databaseType, buildEpoch } = reader.metadata;
    this.options.info(`Geo database ${this.options.databasePath} loaded (${databaseType}, built ${buildEpoch.toISOString().slice(0, 10)})`);
  }

  private watch(): void {
    if (this.options.watchIntervalMs <= 0) return;
    watchFile(this.options.databasePath, { persistent: false, interval: this.options.watchIntervalMs }, this.onChange);
    this.watching = true;
  }

  private readonly onChange = (current: Stats, previous: Stats): void => {
    // A removed file (stat all zeros) leaves the loaded database in use; its return is a change.
    if (current.mtimeMs === 0 || (current.mtimeMs === previous.mtimeMs && current.size === previous.size)) return;
    const reload = (this.reloading ?? Promise.resolve()).then(() => this.reload());
    this.reloading = reload.finally(() => {
      if (this.reloading === reload) this.reloading = null;
    });
  };

  private async reload(): Promise<void> {
    try {
      this.install(await readFile(this.options.databasePath));
    } catch (error) {
      this.options.warn(`Geo database ${this.options.databasePath} changed but was not reloaded (the loaded one stays): ${(error as Error).message}`);
    }
  }
}

/** A country code as a header carries it: two letters, upper-cased; `XX` (unknown) and `ZZ` (unassigned) are no country. */
export function countryOf(value: string | string[] | undefined | null): string | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text.length !== 2) return null;
  const code = text.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || code === 'XX' || code === 'ZZ') return null;
  return code;
}

function placeOfRecord(record: GeoRecord): GeoPlace {
  const country = countryOf(typeof record.country?.iso_code === 'string' ? record.country.iso_code : (record.country_code as string | undefined));
  const names = record.city?.names;
  const name = names && (typeof names.en === 'string' ? names.en : Object.values(names).find((value) => typeof value === 'string'));
  const city = typeof name === 'string' && name.trim() !== '' ? name.slice(0, MAX_CITY_CHARS) : null;
  return country === null && city === null ? UNKNOWN_PLACE : { country, city };
}

const NO_RECORD_CACHE = { get: () => undefined, set: () => undefined };
