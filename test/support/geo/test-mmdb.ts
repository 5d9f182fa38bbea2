import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's libmaxmind-db-writer-perl, which writes the geo tests' MMDB files (`.ci/run` installs it). */
export const HAS_MMDB_WRITER = spawnSync('perl', ['-MMaxMind::DB::Writer::Tree', '-e', '1'], { stdio: 'ignore' }).status === 0;

/** What write-test-mmdb.pl writes (documentation ranges only). */
export type TestMmdbKind = 'city' | 'city-v2' | 'country';

/**
 * The places the test databases hold (write-test-mmdb.pl): `city` is GeoLite2-City-shaped,
 * `city-v2` the same with 203.0.113.0/24 moved to Vienna, `country` shaped as the bundled database.
 */
export const TEST_PLACES = {
  city: [
    ['203.0.113.7', 'DE', 'Berlin'],
    ['198.51.100.1', 'FR', 'Paris'],
    ['198.51.100.200', 'US', 'Paris'],
    ['2001:db8:1::5', 'JP', 'Tokyo'],
    ['2001:db8:2:ffff::1', 'BR', null],
  ],
  country: [
    ['192.0.2.44', 'NL', null],
    ['2001:db8:3::1', 'CA', null],
  ],
} as const;

const SCRIPT = join(__dirname, 'write-test-mmdb.pl');

/** Writes a test MMDB at `path` (by default in a fresh temporary folder) with records of `recordSize` bits, and returns the path. */
export function writeTestMmdb(kind: TestMmdbKind, path = join(mkdtempSync(join(tmpdir(), 'qr-geo-')), `${kind}.mmdb`), recordSize = 24): string {
  execFileSync('perl', [SCRIPT, path, kind, String(recordSize)], { stdio: ['ignore', 'ignore', 'pipe'] });
  return path;
}
