import type { QrCodeId } from '../common/ids/resource-ids';
import type { ScanRow } from './scan-batch';
import { scanRollupDeltaOf } from './scan-rollup-delta';

const A = '00000000-0000-4000-8000-00000000000a' as QrCodeId;
const B = '00000000-0000-4000-8000-00000000000b' as QrCodeId;
const row = (overrides: Partial<ScanRow>): ScanRow => ({
  eventId: '00000000-0000-4000-8000-000000000001',
  codeId: A,
  scannedAt: '2026-11-27T10:00:00.000Z',
  referrer: null,
  visitorHash: 'h1'.padEnd(32, '0'),
  device: 'mobile',
  os: 'iOS',
  browser: 'Mobile Safari',
  isBot: false,
  country: null,
  city: null,
  ruleIndex: null,
  armIndex: null,
  ...overrides,
});

/** The delta's value rows as `code day dimension value detail scans` lines, sorted. */
const valueLines = (rows: ScanRow[]) => {
  const { values } = scanRollupDeltaOf(rows);
  return values.codeIds
    .map((code, i) => `${code.slice(-1)} ${values.days[i]} ${values.dimensions[i]} ${values.values[i]} ${values.details[i]} ${values.scans[i]}`)
    .sort();
};

describe('scanRollupDeltaOf', () => {
  it('sums scans and bot scans per code and UTC day', () => {
    const delta = scanRollupDeltaOf([
      row({}),
      row({ scannedAt: '2026-11-27T23:59:59.999Z' }),
      row({ scannedAt: '2026-11-28T00:00:00.000Z' }),
      row({ isBot: true, device: 'bot' }),
      row({ codeId: B }),
    ]);
    const days = delta.days.codeIds.map((code, i) => `${code.slice(-1)} ${delta.days.days[i]} ${delta.days.scans[i]} ${delta.days.botScans[i]}`);
    expect(days.sort()).toEqual(['a 2026-11-27 2 1', 'a 2026-11-28 1 0', 'b 2026-11-27 1 0']);
    expect(delta.earliestDay).toBe('2026-11-27');
  });

  it('lists each human visitor hash once per code and day; bots have none', () => {
    const { visitors } = scanRollupDeltaOf([
      row({}),
      row({}),
      row({ codeId: B }),
      row({ scannedAt: '2026-11-28T01:00:00.000Z' }),
      row({ isBot: true, visitorHash: 'bot'.padEnd(32, '0') }),
    ]);
    expect(visitors.codeIds.map((code, i) => `${code.slice(-1)} ${visitors.days[i]} ${visitors.hashes[i].slice(0, 3)}`).sort()).toEqual([
      'a 2026-11-27 h10',
      'a 2026-11-28 h10',
      'b 2026-11-27 h10',
    ]);
  });

  it.each<[string, Partial<ScanRow>, string[]]>([
    [
      'every dimension of a plain scan; an unknown country is "unknown"; a null referrer stays null (the database calls it direct)',
      {},
      [
        'a 2026-11-27 browser Mobile Safari  1',
        'a 2026-11-27 country unknown  1',
        'a 2026-11-27 device mobile  1',
        'a 2026-11-27 os iOS  1',
        'a 2026-11-27 referrer null  1',
      ],
    ],
    [
      'a city with its country as detail; rule and arm (its rule as detail)',
      { country: 'FR', city: 'Paris', ruleIndex: 2, armIndex: 1, referrer: 'https://x.example/' },
      [
        'a 2026-11-27 arm 1 2 1',
        'a 2026-11-27 browser Mobile Safari  1',
        'a 2026-11-27 city Paris FR 1',
        'a 2026-11-27 country FR  1',
        'a 2026-11-27 device mobile  1',
        'a 2026-11-27 os iOS  1',
        'a 2026-11-27 referrer https://x.example/  1',
        'a 2026-11-27 rule 2  1',
      ],
    ],
    ['a bot adds no value', { isBot: true }, []],
  ])('%s', (_name, overrides, expected) => expect(valueLines([row(overrides)])).toEqual(expected));

  it('adds up repeated values', () => {
    expect(valueLines([row({}), row({ os: 'Android' }), row({})]).filter((line) => line.includes(' os '))).toEqual([
      'a 2026-11-27 os Android  1',
      'a 2026-11-27 os iOS  2',
    ]);
  });

  it('is empty without rows', () => {
    expect(scanRollupDeltaOf([])).toMatchObject({ earliestDay: null, days: { codeIds: [] }, values: { codeIds: [] }, visitors: { codeIds: [] } });
  });
});
