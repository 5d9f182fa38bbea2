import type { QrCodeId } from '../common/ids/resource-ids';
import { recordedScan } from '../../test/support/factories';
import { readRowsOf, type ScanBatch, ScanBatchWriter } from './scan-batch';
import type { ScanEvent } from './scan-event';
import { scanRollupDeltaOf } from './scan-rollup-delta';
import { VisitorHasher } from './visitor-hash';

const A = '00000000-0000-4000-8000-00000000000a' as QrCodeId;
const B = '00000000-0000-4000-8000-00000000000b' as QrCodeId;
const GONE = '00000000-0000-4000-8000-00000000000c' as QrCodeId;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';
const BOT = 'Googlebot/2.1 (+http://www.google.com/bot.html)';
const NOV_27 = Date.parse('2026-11-27T10:00:00Z');
const NOV_28 = Date.parse('2026-11-28T00:00:00Z');

const writer = new ScanBatchWriter(VisitorHasher.withSecret('delta-spec'));
const scan = (overrides: Partial<ScanEvent>) => recordedScan(A, { at: NOV_27, userAgent: IPHONE, ...overrides });
const live = new Set<string>([A, B]);

/** The delta's value rows as `code day dimension value detail scans` lines, sorted. */
function valueLines(batches: ScanBatch[]): string[] {
  const { values } = scanRollupDeltaOf(batches, live);
  return values.codeIds
    .map((code, i) => `${code.slice(-1)} ${values.days[i]} ${values.dimensions[i]} ${values.values[i]} ${values.details[i]} ${values.scans[i]}`)
    .sort();
}

/** The same sums the plain way, over the rows read back as objects: what the delta must equal. */
function referenceLines(batches: ScanBatch[]): string[] {
  const counts = new Map<string, number>();
  const add = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const row of batches.flatMap((batch) => readRowsOf(batch, live))) {
    if (row.isBot) continue;
    const prefix = `${row.codeId.slice(-1)} ${row.scannedAt.slice(0, 10)}`;
    add(`${prefix} device ${row.device} `);
    add(`${prefix} os ${row.os} `);
    add(`${prefix} browser ${row.browser} `);
    add(`${prefix} referrer ${row.referrer} `);
    add(`${prefix} country ${row.country ?? 'unknown'} `);
    if (row.city !== null) add(`${prefix} city ${row.city} ${row.country ?? ''}`);
    if (row.ruleIndex !== null) add(`${prefix} rule ${row.ruleIndex} `);
    if (row.armIndex !== null) add(`${prefix} arm ${row.armIndex} ${row.ruleIndex ?? ''}`);
  }
  return [...counts].map(([key, n]) => `${key} ${n}`).sort();
}

describe('scanRollupDeltaOf', () => {
  it('sums scans and bot scans per code and UTC day, only of the codes given', () => {
    const delta = scanRollupDeltaOf(
      [
        writer.write([
          scan({}),
          scan({ at: NOV_28 - 1 }),
          scan({ at: NOV_28 }),
          scan({ userAgent: BOT, isBot: true }),
          scan({ codeId: B }),
          scan({ codeId: GONE }),
        ]),
      ],
      live,
    );
    const days = delta.days.codeIds.map((code, i) => `${code.slice(-1)} ${delta.days.days[i]} ${delta.days.scans[i]} ${delta.days.botScans[i]}`);
    expect(days.sort()).toEqual(['a 2026-11-27 2 1', 'a 2026-11-28 1 0', 'b 2026-11-27 1 0']);
    expect(delta.earliestDay).toBe('2026-11-27');
  });

  it('lists the distinct visitor hashes of human scans per code and day, written one after the other; bots have none', () => {
    const batch = writer.write([scan({}), scan({}), scan({ ip: '198.51.100.7' }), scan({ userAgent: BOT, isBot: true }), scan({ codeId: B })]);
    const { visitors } = scanRollupDeltaOf([batch], live);
    expect(visitors.codeIds).toEqual([A, B]);
    expect(visitors.hashes.map((hashes) => hashes.match(/.{32}/g))).toEqual([
      [expect.stringMatching(/^[0-9a-f]{32}$/), expect.any(String)],
      [expect.any(String)],
    ]);
    expect(visitors.hashes[0].slice(0, 32)).not.toBe(visitors.hashes[0].slice(32));
    expect(visitors.hashes[0]).toHaveLength(64);
  });

  it.each<[string, Array<Partial<ScanEvent>>, string[]]>([
    [
      'a plain scan: an unknown country is "unknown"; no referrer is null (the database calls it direct)',
      [{}],
      [
        'a 2026-11-27 browser Mobile Safari  1',
        'a 2026-11-27 country unknown  1',
        'a 2026-11-27 device mobile  1',
        'a 2026-11-27 os iOS  1',
        'a 2026-11-27 referrer null  1',
      ],
    ],
    [
      'a city with its country as detail; rule and arm (its rule as detail); referrers as sent',
      [{ country: 'FR', city: 'Paris', ruleIndex: 2, armIndex: 1, referrer: 'https://x.example/' }],
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
    ['a bot adds no value', [{ userAgent: BOT, isBot: true }], []],
  ])('%s', (_name, scans, expected) => expect(valueLines([writer.write(scans.map(scan))])).toEqual(expected));

  it('equals the plain sums over mixed batches, escapes included', () => {
    const batches = [0, 1, 2].map((round) =>
      writer.write(
        Array.from({ length: 60 }, (_, i) =>
          scan({
            codeId: [A, B, GONE][i % 3],
            at: NOV_27 + round * 50_000_000 + i,
            userAgent: [IPHONE, FIREFOX, BOT, null][i % 4],
            isBot: i % 4 >= 2,
            referrer: [null, '', 'https://a.example/x', 'tab\there\\and\nnewline', 'https://b.example/'][i % 5],
            country: [null, 'DE', 'US'][i % 3],
            city: [null, 'Berlin', 'Tab\tCity'][(i >> 1) % 3],
            ruleIndex: i % 6 === 0 ? 1 : null,
            armIndex: i % 12 === 0 ? 0 : null,
          }),
        ),
      ),
    );
    expect(valueLines(batches)).toEqual(referenceLines(batches));
  });

  it('is empty without rows', () => {
    expect(scanRollupDeltaOf([], live)).toMatchObject({
      earliestDay: null,
      days: { codeIds: [] },
      values: { codeIds: [] },
      visitors: { codeIds: [] },
    });
  });
});
