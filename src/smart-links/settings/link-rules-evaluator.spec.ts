import { randomBytes } from 'node:crypto';
import { isbot } from 'isbot';
import { VisitorHasher } from '../../scans/visitor-hash';
import { agentTraits } from './agent-traits';
import { CompiledRules, type ScanFacts } from './link-rules-evaluator';
import { CONDITION_ORDER, type LinkRule, type RuleConditions } from './link-settings';

const HIT = 'https://hit.example/';
const AT = Date.parse('2027-01-04T12:00:00Z'); // a Monday

interface Scan {
  at?: number | string;
  query?: Record<string, string | string[]>;
  acceptLanguage?: string | null;
  country?: string | null;
  userAgent?: string | null;
  visitor?: string;
  scanCount?: number;
}

function factsOf(scan: Scan = {}): ScanFacts {
  const userAgent = scan.userAgent ?? null;
  return {
    at: typeof scan.at === 'string' ? Date.parse(scan.at) : (scan.at ?? AT),
    query: scan.query ?? {},
    acceptLanguage: scan.acceptLanguage ?? null,
    country: scan.country ?? null,
    traits: () => agentTraits(userAgent, userAgent !== null && isbot(userAgent)),
    visitorHash: () => scan.visitor ?? 'visitor-0',
    scanCount: scan.scanCount,
  };
}

/** Whether a code with one rule of these conditions sends the scan to the rule's URL. */
function matches(conditions: RuleConditions, scan: Scan): boolean {
  const outcome = new CompiledRules([{ conditions, target: HIT }], 'code-1').evaluate(factsOf(scan));
  return outcome.ruleIndex === 0 && outcome.url === HIT;
}

const AGENTS = {
  iPhoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  androidChrome: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  samsungInternet:
    'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) ' +
    'SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
  windowsEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  windowsFirefox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
} as const;

const DEVICES = ['mobile', 'tablet', 'desktop'] as const;
const OSES = ['ios', 'android', 'windows', 'macos', 'linux', 'other'] as const;
const BROWSERS = ['chrome', 'safari', 'firefox', 'edge', 'samsung', 'other'] as const;

describe('CompiledRules', () => {
  describe('device, os and browser, by real user agents', () => {
    test.each<[keyof typeof AGENTS, (typeof DEVICES)[number] | null, (typeof OSES)[number], (typeof BROWSERS)[number]]>([
      ['iPhoneSafari', 'mobile', 'ios', 'safari'],
      ['androidChrome', 'mobile', 'android', 'chrome'],
      ['samsungInternet', 'mobile', 'android', 'samsung'],
      ['windowsEdge', 'desktop', 'windows', 'edge'],
      ['windowsChrome', 'desktop', 'windows', 'chrome'],
      ['windowsFirefox', 'desktop', 'windows', 'firefox'],
      ['macSafari', 'desktop', 'macos', 'safari'],
      ['linuxFirefox', 'desktop', 'linux', 'firefox'],
      ['iPad', 'tablet', 'ios', 'safari'],
      ['googlebot', null, 'other', 'other'],
    ])('%s: device %s, os %s, browser %s, and no other', (agent, device, os, browser) => {
      const userAgent = AGENTS[agent];
      for (const each of DEVICES) expect([each, matches({ device: [each] }, { userAgent })]).toEqual([each, each === device]);
      for (const each of OSES) expect([each, matches({ os: [each] }, { userAgent })]).toEqual([each, each === os]);
      for (const each of BROWSERS) expect([each, matches({ browser: [each] }, { userAgent })]).toEqual([each, each === browser]);
    });

    test('a list matches any of its values', () => {
      expect(matches({ device: ['tablet', 'mobile'] }, { userAgent: AGENTS.iPhoneSafari })).toBe(true);
      expect(matches({ device: ['tablet', 'desktop'] }, { userAgent: AGENTS.iPhoneSafari })).toBe(false);
    });

    test('a bot or a scan without a user agent matches no device at all', () => {
      expect(matches({ device: [...DEVICES] }, { userAgent: AGENTS.googlebot })).toBe(false);
      expect(matches({ device: [...DEVICES] }, { userAgent: null })).toBe(false);
    });
  });

  describe('language (the most preferred of Accept-Language)', () => {
    test.each<[string | null, string[], boolean]>([
      ['de-AT,de;q=0.9,en;q=0.5', ['de'], true],
      ['de', ['de-at'], false],
      ['de-AT', ['de-at'], true],
      ['en;q=0.5,de;q=0.9', ['de'], true],
      ['en;q=0.5,de;q=0.9', ['en'], false],
      ['en-US,en;q=0.9,de;q=0.8', ['de'], false],
      ['fr;q=0,de;q=0.1', ['fr'], false],
      ['*,de;q=0.5', ['de'], true],
      ['DE-at', ['de'], true],
      ['dE', ['en', 'de'], true],
      ['deu', ['de'], false],
      ['', ['de'], false],
      [null, ['de'], false],
    ])('Accept-Language %p, ranges %p: %p', (acceptLanguage, language, expected) => {
      expect(matches({ language }, { acceptLanguage })).toBe(expected);
    });
  });

  describe('country', () => {
    test.each<[string | null, string[], boolean]>([
      ['DE', ['DE'], true],
      ['AT', ['DE', 'AT', 'CH'], true],
      ['FR', ['DE', 'AT', 'CH'], false],
      [null, ['DE'], false],
    ])('scan from %p, rule %p: %p', (country, list, expected) => {
      expect(matches({ country: list }, { country })).toBe(expected);
    });

    test('a scan whose country is unknown matches no list, however long', () => {
      const everyCode = ['DE', 'US', 'XK', 'ZW', 'AD'];
      expect(matches({ country: everyCode }, { country: null })).toBe(false);
    });
  });

  describe('time: from and to', () => {
    const time = { from: '2027-03-01T09:00:00.000Z', to: '2027-03-02T09:00:00.000Z' };
    test.each<[string, boolean]>([
      ['2027-03-01T08:59:59.999Z', false],
      ['2027-03-01T09:00:00.000Z', true],
      ['2027-03-02T08:59:59.999Z', true],
      ['2027-03-02T09:00:00.000Z', false],
    ])('at %s: %p (from inclusive, to exclusive)', (at, expected) => {
      expect(matches({ time }, { at })).toBe(expected);
    });

    test.each<[string, { from?: string; to?: string }, boolean]>([
      ['2020-01-01T00:00:00Z', { from: '2027-03-01T09:00:00.000Z' }, false],
      ['2099-01-01T00:00:00Z', { from: '2027-03-01T09:00:00.000Z' }, true],
      ['2020-01-01T00:00:00Z', { to: '2027-03-01T09:00:00.000Z' }, true],
      ['2099-01-01T00:00:00Z', { to: '2027-03-01T09:00:00.000Z' }, false],
    ])('an open bound: at %s, %p: %p', (at, bounds, expected) => {
      expect(matches({ time: bounds }, { at })).toBe(expected);
    });
  });

  describe('time: days and hours in UTC', () => {
    test.each<[string, boolean]>([
      ['2027-01-04T00:00:00Z', true], // Monday
      ['2027-01-08T23:59:59Z', true], // Friday
      ['2027-01-09T00:00:00Z', false], // Saturday
      ['2027-01-10T12:00:00Z', false], // Sunday
    ])('weekdays only, at %s: %p', (at, expected) => {
      expect(matches({ time: { days: ['mon', 'tue', 'wed', 'thu', 'fri'] } }, { at })).toBe(expected);
    });

    test.each<[string, boolean]>([
      ['08:59:59', false],
      ['09:00:00', true],
      ['17:29:59', true],
      ['17:30:00', false],
    ])('hours 09:00-17:30 at %s: %p', (clock, expected) => {
      expect(matches({ time: { hours: { from: '09:00', to: '17:30' } } }, { at: `2027-01-04T${clock}Z` })).toBe(expected);
    });

    test.each<[string, boolean]>([
      ['2027-01-04T21:59:59Z', false],
      ['2027-01-04T22:00:00Z', true],
      ['2027-01-04T23:59:59Z', true],
      ['2027-01-05T00:00:00Z', true],
      ['2027-01-05T05:59:59Z', true],
      ['2027-01-05T06:00:00Z', false],
      ['2027-01-05T12:00:00Z', false],
    ])('hours 22:00-06:00 (spanning midnight) at %s: %p', (at, expected) => {
      expect(matches({ time: { hours: { from: '22:00', to: '06:00' } } }, { at })).toBe(expected);
    });

    test.each<[string, boolean]>([
      ['2027-01-04T00:00:00Z', true],
      ['2027-01-04T23:59:59Z', true],
    ])('hours 00:00-24:00 (the whole day) at %s: %p', (at, expected) => {
      expect(matches({ time: { hours: { from: '00:00', to: '24:00' } } }, { at })).toBe(expected);
    });

    test.each<[string, boolean]>([
      ['2027-01-08T23:00:00Z', true], // Friday night
      ['2027-01-09T01:00:00Z', false], // the same night, but Saturday by the clock
      ['2027-01-04T01:00:00Z', false], // Monday early: Monday is not in the list
    ])('days are the local day of the scan itself, also in a window spanning midnight: fri 22:00-06:00 at %s: %p', (at, expected) => {
      expect(matches({ time: { days: ['fri'], hours: { from: '22:00', to: '06:00' } } }, { at })).toBe(expected);
    });

    test('all of from/to, days and hours must hold', () => {
      const time = { from: '2027-01-01T00:00:00Z', days: ['mon' as const], hours: { from: '09:00', to: '17:00' } };
      expect(matches({ time }, { at: '2027-01-04T10:00:00Z' })).toBe(true);
      expect(matches({ time }, { at: '2027-01-05T10:00:00Z' })).toBe(false);
      expect(matches({ time }, { at: '2027-01-04T18:00:00Z' })).toBe(false);
      expect(matches({ time }, { at: '2026-12-28T10:00:00Z' })).toBe(false);
    });
  });

  describe('time: zones across DST changes', () => {
    const office = (timeZone: string): RuleConditions => ({ time: { hours: { from: '09:00', to: '17:00' }, time_zone: timeZone } });

    test.each<[string, string, boolean]>([
      // Berlin, spring: CET (UTC+1) until 2027-03-28T01:00Z, then CEST (UTC+2)
      ['Europe/Berlin', '2027-03-27T07:59:59Z', false],
      ['Europe/Berlin', '2027-03-27T08:00:00Z', true],
      ['Europe/Berlin', '2027-03-27T15:59:59Z', true],
      ['Europe/Berlin', '2027-03-27T16:00:00Z', false],
      ['Europe/Berlin', '2027-03-28T06:59:59Z', false],
      ['Europe/Berlin', '2027-03-28T07:00:00Z', true],
      ['Europe/Berlin', '2027-03-28T14:59:59Z', true],
      ['Europe/Berlin', '2027-03-28T15:00:00Z', false],
      // Berlin, autumn: CEST until 2027-10-31T01:00Z, then CET
      ['Europe/Berlin', '2027-10-30T06:59:59Z', false],
      ['Europe/Berlin', '2027-10-30T07:00:00Z', true],
      ['Europe/Berlin', '2027-10-30T15:00:00Z', false],
      ['Europe/Berlin', '2027-10-31T07:59:59Z', false],
      ['Europe/Berlin', '2027-10-31T08:00:00Z', true],
      ['Europe/Berlin', '2027-10-31T15:59:59Z', true],
      ['Europe/Berlin', '2027-10-31T16:00:00Z', false],
      // New York, spring: EST (UTC-5) until 2027-03-14T07:00Z, then EDT (UTC-4)
      ['America/New_York', '2027-03-13T13:59:59Z', false],
      ['America/New_York', '2027-03-13T14:00:00Z', true],
      ['America/New_York', '2027-03-13T22:00:00Z', false],
      ['America/New_York', '2027-03-14T12:59:59Z', false],
      ['America/New_York', '2027-03-14T13:00:00Z', true],
      ['America/New_York', '2027-03-14T20:59:59Z', true],
      ['America/New_York', '2027-03-14T21:00:00Z', false],
      // New York, autumn: EDT until 2027-11-07T06:00Z, then EST
      ['America/New_York', '2027-11-06T13:00:00Z', true],
      ['America/New_York', '2027-11-06T21:00:00Z', false],
      ['America/New_York', '2027-11-07T13:59:59Z', false],
      ['America/New_York', '2027-11-07T14:00:00Z', true],
      ['America/New_York', '2027-11-07T21:59:59Z', true],
      ['America/New_York', '2027-11-07T22:00:00Z', false],
    ])('office hours 09:00-17:00 in %s at %s: %p', (timeZone, at, expected) => {
      expect(matches(office(timeZone), { at })).toBe(expected);
    });

    test.each<[string, boolean]>([
      ['2027-03-28T00:30:00Z', true], // 01:30 CET
      ['2027-03-28T00:59:59Z', true], // 01:59:59 CET, the last second before the gap
      ['2027-03-28T01:00:00Z', false], // 03:00 CEST: 02:00-02:59 never happen that night
    ])('Berlin spring gap, hours 01:00-03:00 at %s: %p', (at, expected) => {
      expect(matches({ time: { hours: { from: '01:00', to: '03:00' }, time_zone: 'Europe/Berlin' } }, { at })).toBe(expected);
    });

    test.each<[string, boolean]>([
      ['2027-10-30T23:59:59Z', false], // 01:59:59 CEST
      ['2027-10-31T00:30:00Z', true], // 02:30 CEST
      ['2027-10-31T01:30:00Z', true], // 02:30 CET, the same wall-clock hour again
      ['2027-10-31T02:00:00Z', false], // 03:00 CET
    ])('Berlin autumn repeated hour, hours 02:00-03:00 at %s: %p', (at, expected) => {
      expect(matches({ time: { hours: { from: '02:00', to: '03:00' }, time_zone: 'Europe/Berlin' } }, { at })).toBe(expected);
    });

    test.each<[string, string, boolean]>([
      ['Europe/Berlin', '2027-03-27T22:59:59Z', false], // Saturday 23:59:59 CET
      ['Europe/Berlin', '2027-03-27T23:00:00Z', true], // Sunday 00:00 CET
      ['Europe/Berlin', '2027-10-31T22:59:59Z', true], // Sunday 23:59:59 CET
      ['Europe/Berlin', '2027-10-31T23:00:00Z', false], // Monday 00:00 CET
      ['America/New_York', '2027-03-14T04:59:59Z', false], // Saturday 23:59:59 EST
      ['America/New_York', '2027-03-14T05:00:00Z', true], // Sunday 00:00 EST
      ['America/New_York', '2027-11-08T04:59:59Z', true], // Sunday 23:59:59 EST
      ['America/New_York', '2027-11-08T05:00:00Z', false], // Monday 00:00 EST
    ])('Sundays in %s, at %s: %p', (timeZone, at, expected) => {
      expect(matches({ time: { days: ['sun'], time_zone: timeZone } }, { at })).toBe(expected);
    });
  });

  describe('query', () => {
    test.each<[Record<string, string>, Record<string, string | string[]>, boolean]>([
      [{ src: 'poster' }, { src: 'poster' }, true],
      [{ src: 'poster' }, { src: 'flyer' }, false],
      [{ src: 'poster' }, {}, false],
      [{ src: 'poster' }, { SRC: 'poster' }, false],
      [{ src: 'poster' }, { src: 'Poster' }, false],
      [{ src: 'poster' }, { src: ['flyer', 'poster'] }, true],
      [{ src: 'poster' }, { src: ['flyer', 'sticker'] }, false],
      [{ src: 'poster', city: 'berlin' }, { src: 'poster', city: 'berlin', extra: '1' }, true],
      [{ src: 'poster', city: 'berlin' }, { src: 'poster' }, false],
      [{ toString: 'x' }, {}, false],
    ])('rule %p, scanned query %p: %p', (query, scanned, expected) => {
      expect(matches({ query }, { query: scanned })).toBe(expected);
    });
  });

  describe('scans_below', () => {
    test.each<[number, boolean]>([
      [0, true],
      [99, true],
      [100, false],
      [250, false],
    ])('scans_below 100 with %p scans: %p', (scanCount, expected) => {
      expect(matches({ scans_below: 100 }, { scanCount })).toBe(expected);
    });

    test('needsScanCount says whether any rule asks for the count', () => {
      expect(new CompiledRules([{ conditions: { country: ['DE'] }, target: HIT }], 'c').needsScanCount).toBe(false);
      const rules: LinkRule[] = [
        { conditions: { country: ['DE'] }, target: HIT },
        { conditions: { scans_below: 5 }, target: HIT },
      ];
      expect(new CompiledRules(rules, 'c').needsScanCount).toBe(true);
    });
  });

  describe('order and first match', () => {
    const rules: LinkRule[] = [
      { name: 'germany', conditions: { country: ['DE'] }, target: 'https://de.example/' },
      { name: 'mobile', conditions: { device: ['mobile'] }, target: 'https://mobile.example/' },
      { name: 'poster', conditions: { query: { src: 'poster' } }, target: 'content' },
      { name: 'everyone', conditions: {}, target: 'https://all.example/' },
    ];
    const compiled = new CompiledRules(rules, 'code-1');

    test.each<[string, Scan, number, string | null]>([
      ['a German iPhone: the first rule, though the second holds too', { country: 'DE', userAgent: AGENTS.iPhoneSafari }, 0, 'https://de.example/'],
      ['a French iPhone', { country: 'FR', userAgent: AGENTS.iPhoneSafari }, 1, 'https://mobile.example/'],
      ['a desktop from the poster: the content target', { userAgent: AGENTS.macSafari, query: { src: 'poster' } }, 2, null],
      ['anyone else: the empty conditions', { userAgent: AGENTS.macSafari }, 3, 'https://all.example/'],
    ])('%s', (_case, scan, ruleIndex, url) => {
      expect(compiled.evaluate(factsOf(scan))).toEqual({ ruleIndex, armIndex: null, url });
    });

    test('no rule matching: the code’s own content, without rule or arm', () => {
      const strict = new CompiledRules(rules.slice(0, 2), 'code-1');
      expect(strict.evaluate(factsOf({ country: 'FR', userAgent: AGENTS.macSafari }))).toEqual({ ruleIndex: null, armIndex: null, url: null });
    });

    test('no rules at all: the code’s own content', () => {
      const none = new CompiledRules([], 'code-1');
      expect(none.size).toBe(0);
      expect(none.evaluate(factsOf())).toEqual({ ruleIndex: null, armIndex: null, url: null });
    });

    test('a rule with empty conditions matches every scan, even a bot without headers', () => {
      const everyone = new CompiledRules([{ conditions: {}, target: HIT }], 'code-1');
      for (const scan of [{}, { userAgent: AGENTS.googlebot }, { country: 'JP', acceptLanguage: 'ja', at: '2099-12-31T23:59:59Z' }]) {
        expect(everyone.evaluate(factsOf(scan))).toEqual({ ruleIndex: 0, armIndex: null, url: HIT });
      }
    });

    test('every condition of a rule must hold', () => {
      const both: RuleConditions = { country: ['DE'], device: ['mobile'] };
      expect(matches(both, { country: 'DE', userAgent: AGENTS.iPhoneSafari })).toBe(true);
      expect(matches(both, { country: 'DE', userAgent: AGENTS.macSafari })).toBe(false);
      expect(matches(both, { country: 'FR', userAgent: AGENTS.iPhoneSafari })).toBe(false);
    });
  });

  describe('explain', () => {
    const scan: Scan = {
      at: '2027-01-04T12:00:00Z',
      query: { src: 'poster' },
      country: 'DE',
      userAgent: AGENTS.iPhoneSafari,
      acceptLanguage: 'de-DE,en;q=0.5',
      scanCount: 10,
    };
    /** Per condition, one that holds for `scan` and one that does not. */
    const HOLDS: Required<RuleConditions> = {
      query: { src: 'poster' },
      time: { days: ['mon'] },
      country: ['DE'],
      device: ['mobile'],
      os: ['ios'],
      browser: ['safari'],
      language: ['de'],
      scans_below: 11,
    };
    const FAILS: Required<RuleConditions> = {
      query: { src: 'flyer' },
      time: { days: ['tue'] },
      country: ['FR'],
      device: ['desktop'],
      os: ['android'],
      browser: ['chrome'],
      language: ['en'],
      scans_below: 10,
    };

    test('the conditions cover CONDITION_ORDER', () => {
      expect(Object.keys(HOLDS).sort()).toEqual([...CONDITION_ORDER].sort());
    });

    test.each(CONDITION_ORDER.map((name) => [name]))('names %s when it is the first failing condition in CONDITION_ORDER', (failing) => {
      const at = CONDITION_ORDER.indexOf(failing);
      // The conditions before `failing` hold, it and all after it fail; written in reverse order, so object order cannot explain the answer.
      const conditions: Record<string, unknown> = {};
      for (const name of [...CONDITION_ORDER].reverse()) conditions[name] = CONDITION_ORDER.indexOf(name) < at ? HOLDS[name] : FAILS[name];
      const rules: LinkRule[] = [
        { name: 'tested', conditions, target: 'https://a.example/' },
        { conditions: {}, target: 'https://b.example/' },
      ];
      const outcome = new CompiledRules(rules, 'code-1').explain(factsOf(scan));
      expect(outcome).toEqual({ ruleIndex: 1, armIndex: null, url: 'https://b.example/', misses: [{ rule: 0, name: 'tested', failed: failing }] });
    });

    test('all conditions holding: a match and no misses', () => {
      const outcome = new CompiledRules([{ conditions: HOLDS, target: HIT }], 'code-1').explain(factsOf(scan));
      expect(outcome).toEqual({ ruleIndex: 0, armIndex: null, url: HIT, misses: [] });
    });

    test('misses only for rules before the match, each with its name or null; none matching: every rule', () => {
      const rules: LinkRule[] = [
        { name: 'france', conditions: { country: ['FR'] }, target: 'https://fr.example/' },
        { conditions: { device: ['desktop'], country: ['DE'] }, target: 'https://desk.example/' },
        { conditions: { language: ['de'] }, target: 'https://de.example/' },
        { conditions: { os: ['android'] }, target: 'https://android.example/' },
      ];
      expect(new CompiledRules(rules, 'code-1').explain(factsOf(scan))).toEqual({
        ruleIndex: 2,
        armIndex: null,
        url: 'https://de.example/',
        misses: [
          { rule: 0, name: 'france', failed: 'country' },
          { rule: 1, name: null, failed: 'device' },
        ],
      });
      const english = { ...scan, acceptLanguage: 'en' };
      expect(new CompiledRules(rules, 'code-1').explain(factsOf(english)).misses.map((miss) => miss.failed)).toEqual([
        'country',
        'device',
        'language',
        'os',
      ]);
    });

    test('explain and evaluate agree', () => {
      const rules: LinkRule[] = [
        { conditions: { country: ['FR'] }, target: 'https://fr.example/' },
        { conditions: { device: ['mobile'] }, target: { split: [1, 2, 3].map((weight) => ({ url: `https://arm${weight}.example/`, weight })) } },
      ];
      const compiled = new CompiledRules(rules, 'code-1');
      for (let visitor = 0; visitor < 50; visitor++) {
        const facts = factsOf({ ...scan, visitor: `v${visitor}` });
        const { misses, ...outcome } = compiled.explain(facts);
        expect(outcome).toEqual(compiled.evaluate(facts));
        expect(misses).toEqual([{ rule: 0, name: null, failed: 'country' }]);
      }
    });
  });

  describe('lazy facts', () => {
    function countingFacts(scan: Scan) {
      const facts = factsOf(scan);
      const calls = { traits: 0, visitorHash: 0 };
      return {
        calls,
        facts: {
          ...facts,
          traits: () => (calls.traits++, facts.traits()),
          visitorHash: () => (calls.visitorHash++, facts.visitorHash()),
        },
      };
    }

    test('neither the user agent’s traits nor the visitor hash are asked for when no rule needs them', () => {
      const { calls, facts } = countingFacts({ country: 'DE', userAgent: AGENTS.iPhoneSafari });
      new CompiledRules([{ conditions: { country: ['DE'] }, target: HIT }], 'code-1').evaluate(facts);
      expect(calls).toEqual({ traits: 0, visitorHash: 0 });
    });

    test('the traits are asked for once per scan, however many rules read them', () => {
      const { calls, facts } = countingFacts({ userAgent: AGENTS.macSafari });
      const rules: LinkRule[] = [
        { conditions: { device: ['mobile'] }, target: HIT },
        { conditions: { os: ['android'] }, target: HIT },
        {
          conditions: { browser: ['safari'] },
          target: {
            split: [
              { url: HIT, weight: 1 },
              { url: 'https://b.example/', weight: 1 },
            ],
          },
        },
      ];
      expect(new CompiledRules(rules, 'code-1').evaluate(facts).ruleIndex).toBe(2);
      expect(calls).toEqual({ traits: 1, visitorHash: 1 });
    });

    test('a condition after a failed one is not evaluated', () => {
      const { calls, facts } = countingFacts({ country: 'FR', userAgent: AGENTS.macSafari });
      new CompiledRules([{ conditions: { device: ['desktop'], country: ['DE'] }, target: HIT }], 'code-1').evaluate(facts);
      expect(calls.traits).toBe(0);
    });
  });

  describe('A/B split', () => {
    const VISITORS = 100_000;
    const splitRules = (weights: number[]): LinkRule[] => [
      { conditions: { country: ['FR'] }, target: 'https://fr.example/' },
      { conditions: {}, target: { split: weights.map((weight, arm) => ({ url: `https://arm${arm}.example/`, weight })) } },
    ];

    test.each<[string, number[]]>([
      ['50/50', [50, 50]],
      ['10/30/60', [10, 30, 60]],
      ['1/99', [1, 99]],
      ['ten arms 1..10', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    ])('%s: over 100,000 random visitors each arm’s share is within 1 % of its weight', (_case, weights) => {
      const compiled = new CompiledRules(splitRules(weights), 'code-split');
      const hashes = randomBytes(16 * VISITORS);
      let hash = '';
      const facts: ScanFacts = { ...factsOf({ country: 'DE' }), visitorHash: () => hash };
      const counts = new Array<number>(weights.length).fill(0);
      let wrongUrls = 0;
      for (let visitor = 0; visitor < VISITORS; visitor++) {
        hash = hashes.toString('hex', 16 * visitor, 16 * visitor + 16);
        const outcome = compiled.evaluate(facts);
        counts[outcome.armIndex!]++;
        if (outcome.url !== `https://arm${outcome.armIndex}.example/`) wrongUrls++;
      }
      expect(wrongUrls).toBe(0);
      const total = weights.reduce((sum, weight) => sum + weight, 0);
      weights.forEach((weight, arm) => {
        expect(Math.abs(counts[arm] / VISITORS - weight / total)).toBeLessThan(0.01);
      });
      expect(counts.every((count) => count > 0)).toBe(true);
    });

    test('a visitor gets the same arm at every scan of the day', () => {
      const compiled = new CompiledRules(splitRules([1, 1, 1, 1, 1]), 'code-split');
      const seen = new Set<number>();
      let changed = 0;
      for (let visitor = 0; visitor < 500; visitor++) {
        const visitorHash = randomBytes(16).toString('hex');
        const first = compiled.evaluate(factsOf({ visitor: visitorHash }));
        seen.add(first.armIndex!);
        for (let again = 0; again < 5; again++) {
          const later = compiled.evaluate(factsOf({ visitor: visitorHash, userAgent: AGENTS.macSafari, at: AT + again * 600_000 }));
          if (later.armIndex !== first.armIndex || later.url !== first.url) changed++;
        }
      }
      expect(changed).toBe(0);
      expect(seen.size).toBe(5);
    });

    test('the next day’s visitor hash may put the same visitor in another arm; the same day’s never does', () => {
      const hasher = VisitorHasher.withSecret('test-secret');
      const compiled = new CompiledRules(splitRules([50, 50]), 'code-split');
      const monday = Date.parse('2027-01-04T09:00:00Z');
      const tuesday = Date.parse('2027-01-05T09:00:00Z');
      let moved = 0;
      const visitors = 2000;
      for (let visitor = 0; visitor < visitors; visitor++) {
        const ip = `10.1.${visitor >> 8}.${visitor & 255}`;
        const armAt = (at: number) => compiled.evaluate(factsOf({ visitor: hasher.hash(at, ip, AGENTS.iPhoneSafari) })).armIndex;
        expect(armAt(monday + 3_600_000)).toBe(armAt(monday));
        if (armAt(tuesday) !== armAt(monday)) moved++;
      }
      // Independent days: about half the visitors of a 50/50 split change arms.
      expect(moved / visitors).toBeGreaterThan(0.4);
      expect(moved / visitors).toBeLessThan(0.6);
    });

    test('the arm depends on the code: one visitor is assigned independently on two codes', () => {
      const first = new CompiledRules(splitRules([50, 50]), 'code-a');
      const second = new CompiledRules(splitRules([50, 50]), 'code-b');
      let differ = 0;
      for (let visitor = 0; visitor < 2000; visitor++) {
        const facts = factsOf({ visitor: `visitor-${visitor}` });
        if (first.evaluate(facts).armIndex !== second.evaluate(facts).armIndex) differ++;
      }
      expect(differ).toBeGreaterThan(800);
      expect(differ).toBeLessThan(1200);
    });
  });
});
