import { redirectHostAliases } from '../../common/web/redirect-target';
import { checkFallbackUrl, checkRules, checkUtm, maxScansProblem, passwordProblem, type LinkCheckContext } from './check-link-settings';

const ownHosts = redirectHostAliases(['https://r.example.com', 'http://localhost:3000']);
const URL_CODE: LinkCheckContext = { ownHosts, isUrlType: true };
const TEXT_CODE: LinkCheckContext = { ownHosts, isUrlType: false };

const VALID_RULE = { conditions: { country: ['DE'] }, target: 'https://example.com/' };

/** `rule` as the rule at `index`, after valid ones: paths must carry the rule's own index. */
const rulesWith = (index: number, rule: unknown): unknown[] => [...Array<unknown>(index).fill(VALID_RULE), rule];
const withConditions = (index: number, conditions: unknown) => rulesWith(index, { conditions, target: 'https://example.com/' });
const withTarget = (index: number, target: unknown) => rulesWith(index, { conditions: {}, target });
const split = (...arms: unknown[]) => ({ split: arms });
const arm = (weight: unknown, url: unknown = 'https://example.com/a') => ({ url, weight });

function fieldsOf(input: unknown, context: LinkCheckContext = URL_CODE): string[] {
  const result = checkRules(input, context);
  if (result.ok) return [];
  for (const error of result.errors) expect(error.message.startsWith(error.field)).toBe(true);
  return result.errors.map((error) => error.field);
}

describe('checkRules', () => {
  describe('refuses, naming the field', () => {
    test.each<[string, unknown, string[]]>([
      ['rules not an array', { conditions: {} }, ['rules']],
      ['rules null', null, ['rules']],
      ['more than 20 rules', Array(21).fill(VALID_RULE), ['rules']],
      ['a rule that is not an object', rulesWith(1, 'https://example.com/'), ['rules[1]']],
      ['a rule that is null', rulesWith(0, null), ['rules[0]']],
      ['an unknown rule field', rulesWith(1, { ...VALID_RULE, priority: 1 }), ['rules[1].priority']],
      ['a blank name', rulesWith(0, { ...VALID_RULE, name: '  ' }), ['rules[0].name']],
      ['a name of 101 characters', rulesWith(0, { ...VALID_RULE, name: 'n'.repeat(101) }), ['rules[0].name']],
      ['no conditions', rulesWith(2, { target: 'https://example.com/' }), ['rules[2].conditions']],
      ['conditions as an array', withConditions(0, [{ country: ['DE'] }]), ['rules[0].conditions']],
      ['an unknown condition key', withConditions(1, { city: ['Berlin'] }), ['rules[1].conditions.city']],
      ['an unknown device', withConditions(2, { device: ['mobile', 'phone'] }), ['rules[2].conditions.device[1]']],
      ['an unknown os', withConditions(0, { os: ['ios', 'symbian'] }), ['rules[0].conditions.os[1]']],
      ['an unknown browser', withConditions(0, { browser: ['opera'] }), ['rules[0].conditions.browser[0]']],
      ['a device that is not a string', withConditions(0, { device: [1] }), ['rules[0].conditions.device[0]']],
      ['an empty device list', withConditions(0, { device: [] }), ['rules[0].conditions.device']],
      ['a device that is not a list', withConditions(0, { device: 'mobile' }), ['rules[0].conditions.device']],
      ['an empty os list', withConditions(0, { os: [] }), ['rules[0].conditions.os']],
      ['an empty browser list', withConditions(0, { browser: [] }), ['rules[0].conditions.browser']],
      ['an empty language list', withConditions(0, { language: [] }), ['rules[0].conditions.language']],
      ['a malformed language range', withConditions(0, { language: ['de', 'de_DE'] }), ['rules[0].conditions.language[1]']],
      ['a language wildcard', withConditions(0, { language: ['*'] }), ['rules[0].conditions.language[0]']],
      ['an empty country list', withConditions(0, { country: [] }), ['rules[0].conditions.country']],
      ['an unknown country code', withConditions(1, { country: ['DE', 'XX'] }), ['rules[1].conditions.country[1]']],
      ['an alpha-3 country code', withConditions(0, { country: ['DEU'] }), ['rules[0].conditions.country[0]']],
      ['a country name', withConditions(0, { country: ['Germany'] }), ['rules[0].conditions.country[0]']],
      ['an empty time', withConditions(0, { time: {} }), ['rules[0].conditions.time']],
      ['a time with only its zone', withConditions(0, { time: { time_zone: 'Europe/Berlin' } }), ['rules[0].conditions.time']],
      ['a time that is not an object', withConditions(0, { time: '09:00-17:00' }), ['rules[0].conditions.time']],
      ['an unknown time key', withConditions(0, { time: { days: ['mon'], weeks: [1] } }), ['rules[0].conditions.time.weeks']],
      ['an empty days list', withConditions(0, { time: { days: [] } }), ['rules[0].conditions.time.days']],
      ['an unknown day', withConditions(0, { time: { days: ['mon', 'monday'] } }), ['rules[0].conditions.time.days[1]']],
      ['hours.from equal to hours.to', withConditions(1, { time: { hours: { from: '09:00', to: '09:00' } } }), ['rules[1].conditions.time.hours.to']],
      [
        'hours from 24:00 (to 00:00 never matches)',
        withConditions(0, { time: { hours: { from: '24:00', to: '00:00' } } }),
        ['rules[0].conditions.time.hours.from'],
      ],
      ['hours without a leading zero', withConditions(0, { time: { hours: { from: '9:00', to: '17:00' } } }), ['rules[0].conditions.time.hours']],
      ['hours 25:00', withConditions(0, { time: { hours: { from: '09:00', to: '25:00' } } }), ['rules[0].conditions.time.hours']],
      ['hours 24:30', withConditions(0, { time: { hours: { from: '09:00', to: '24:30' } } }), ['rules[0].conditions.time.hours']],
      ['hours without to', withConditions(0, { time: { hours: { from: '09:00' } } }), ['rules[0].conditions.time.hours']],
      [
        'hours with an extra key',
        withConditions(0, { time: { hours: { from: '09:00', to: '17:00', zone: 'UTC' } } }),
        ['rules[0].conditions.time.hours'],
      ],
      [
        'from equal to to',
        withConditions(0, { time: { from: '2027-03-01T09:00:00Z', to: '2027-03-01T10:00:00+01:00' } }),
        ['rules[0].conditions.time.to'],
      ],
      ['from after to', withConditions(0, { time: { from: '2027-03-02T00:00:00Z', to: '2027-03-01T00:00:00Z' } }), ['rules[0].conditions.time.to']],
      ['from as a date only', withConditions(0, { time: { from: '2027-03-01' } }), ['rules[0].conditions.time.from']],
      ['from without an offset', withConditions(0, { time: { from: '2027-03-01T09:00:00' } }), ['rules[0].conditions.time.from']],
      ['from on 30 February', withConditions(0, { time: { from: '2027-02-30T00:00:00Z' } }), ['rules[0].conditions.time.from']],
      ['to at 24:00', withConditions(0, { time: { to: '2027-03-01T24:00:00Z' } }), ['rules[0].conditions.time.to']],
      ['to in words', withConditions(0, { time: { to: 'tomorrow' } }), ['rules[0].conditions.time.to']],
      ['to as epoch milliseconds', withConditions(0, { time: { to: 1803945600000 } }), ['rules[0].conditions.time.to']],
      [
        'an unknown time zone',
        withConditions(3, { time: { days: ['mon'], time_zone: 'Mars/Olympus_Mons' } }),
        ['rules[3].conditions.time.time_zone'],
      ],
      ['a time zone that is not a string', withConditions(0, { time: { days: ['mon'], time_zone: 1 } }), ['rules[0].conditions.time.time_zone']],
      ['an empty query', withConditions(0, { query: {} }), ['rules[0].conditions.query']],
      ['a query as a string', withConditions(0, { query: 'src=poster' }), ['rules[0].conditions.query']],
      ['a query value that is not a string', withConditions(0, { query: { src: 1 } }), ['rules[0].conditions.query.src']],
      ['a query with a blank name', withConditions(0, { query: { '': 'x' } }), ['rules[0].conditions.query']],
      [
        'a query of 21 parameters',
        withConditions(0, { query: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, 'x'])) }),
        ['rules[0].conditions.query'],
      ],
      ['scans_below 0', withConditions(0, { scans_below: 0 }), ['rules[0].conditions.scans_below']],
      ['scans_below 1.5', withConditions(0, { scans_below: 1.5 }), ['rules[0].conditions.scans_below']],
      ['scans_below as a string', withConditions(0, { scans_below: '10' }), ['rules[0].conditions.scans_below']],
      ['a javascript: target', withTarget(1, 'javascript:alert(1)'), ['rules[1].target']],
      ['an ftp: target', withTarget(0, 'ftp://example.com/file'), ['rules[0].target']],
      ['a target with user and password', withTarget(0, 'https://user:pass@example.com/'), ['rules[0].target']],
      ['a target looping to the redirect host', withTarget(0, 'https://r.example.com/r/abc123'), ['rules[0].target']],
      ['a target looping to a loopback alias', withTarget(0, 'http://127.0.0.1:3000/r/abc123'), ['rules[0].target']],
      ['a relative target', withTarget(0, '/r/abc123'), ['rules[0].target']],
      ['"content" on a url code', withTarget(0, 'content'), ['rules[0].target']],
      ['no target', rulesWith(0, { conditions: {} }), ['rules[0].target']],
      ['a target that is a number', withTarget(0, 42), ['rules[0].target']],
      ['a split with an extra key', withTarget(0, { ...split(arm(50), arm(50)), sticky: false }), ['rules[0].target']],
      ['a split of 1 arm', withTarget(0, split(arm(100))), ['rules[0].target.split']],
      ['a split of 11 arms', withTarget(0, split(...Array(11).fill(arm(9)))), ['rules[0].target.split']],
      ['an empty split', withTarget(0, split()), ['rules[0].target.split']],
      ['a weight of 0', withTarget(0, split(arm(50), arm(0))), ['rules[0].target.split[1].weight']],
      ['a weight of 101', withTarget(0, split(arm(101), arm(1))), ['rules[0].target.split[0].weight']],
      ['a weight of 1.5', withTarget(0, split(arm(50), arm(1.5))), ['rules[0].target.split[1].weight']],
      ['a weight as a string', withTarget(0, split(arm(50), arm('50'))), ['rules[0].target.split[1].weight']],
      ['a negative weight', withTarget(0, split(arm(-1), arm(50))), ['rules[0].target.split[0].weight']],
      ['an unsafe arm URL', withTarget(0, split(arm(50), arm(50, 'javascript:alert(1)'))), ['rules[0].target.split[1].url']],
      ['an arm looping to the redirect host', withTarget(0, split(arm(50, 'https://R.EXAMPLE.COM/r/x'), arm(50))), ['rules[0].target.split[0].url']],
      [
        'an arm URL and weight both wrong',
        withTarget(0, split(arm(0, 'ftp://x.example/'), arm(50))),
        ['rules[0].target.split[0].url', 'rules[0].target.split[0].weight'],
      ],
      ['an arm with an extra key', withTarget(0, split({ ...arm(50), label: 'a' }, arm(50))), ['rules[0].target.split[0]']],
      ['an arm with a blank name', withTarget(0, split(arm(50), { ...arm(50), name: ' ' })), ['rules[0].target.split[1].name']],
      ['an arm that is a URL', withTarget(0, split('https://example.com/', arm(50))), ['rules[0].target.split[0]']],
    ])('%s', (_case, input, fields) => {
      expect(fieldsOf(input)).toEqual(fields);
    });

    test('every problem of every rule at once', () => {
      const rules = [
        { conditions: { device: ['phone'], country: ['XX'] }, target: 'https://example.com/' },
        VALID_RULE,
        { conditions: { time: { days: ['mon'], time_zone: 'Nowhere/Land' } }, target: 'ftp://example.com/' },
      ];
      expect(fieldsOf(rules)).toEqual([
        'rules[0].conditions.device[0]',
        'rules[0].conditions.country[0]',
        'rules[2].conditions.time.time_zone',
        'rules[2].target',
      ]);
    });

    test('"content" is refused on a url code only', () => {
      expect(fieldsOf(withTarget(0, 'content'), URL_CODE)).toEqual(['rules[0].target']);
      expect(fieldsOf(withTarget(0, 'content'), TEXT_CODE)).toEqual([]);
    });
  });

  describe('accepts, in the stored form', () => {
    test.each<[string, unknown, unknown]>([
      ['no rules', [], []],
      ['country codes upper-cased, repeats dropped', { country: ['de', 'At', 'DE'] }, { country: ['DE', 'AT'] }],
      ['Kosovo (XK)', { country: ['XK'] }, { country: ['XK'] }],
      ['language ranges lower-cased', { language: ['de-AT', 'EN', 'zh-Hant-TW'] }, { language: ['de-at', 'en', 'zh-hant-tw'] }],
      ['every device, os and browser', { device: ['mobile', 'tablet', 'desktop'], os: ['other'], browser: ['samsung'] }, null],
      [
        'from and to with offsets, in UTC',
        { time: { from: '2027-03-01T09:00+01:00', to: '2027-03-01T09:00:00.5Z' } },
        { time: { from: '2027-03-01T08:00:00.000Z', to: '2027-03-01T09:00:00.500Z' } },
      ],
      ['hours spanning midnight', { time: { hours: { from: '22:00', to: '06:00' }, time_zone: 'Europe/Berlin' } }, null],
      ['hours of the whole day', { time: { hours: { from: '00:00', to: '24:00' } } }, null],
      ['days only', { time: { days: ['sat', 'sun'] } }, null],
      ['a zone with an underscore', { time: { days: ['mon'], time_zone: 'America/New_York' } }, null],
      ['query pairs', { query: { src: 'poster', city: '' } }, null],
      ['scans_below 1', { scans_below: 1 }, null],
      ['no conditions', {}, null],
    ])('%s', (_case, conditions, stored) => {
      const input = Array.isArray(conditions) ? conditions : [{ conditions, target: 'https://example.com/' }];
      const expected = Array.isArray(stored) ? stored : [{ conditions: stored ?? conditions, target: 'https://example.com/' }];
      expect(checkRules(input, URL_CODE)).toEqual({ ok: true, value: expected });
    });

    test('URLs normalised, in targets and split arms', () => {
      const input = [
        { name: 'Launch', conditions: {}, target: '  HTTPS://Example.COM:443/Path?q=a b#Top ' },
        { conditions: {}, target: split(arm(1, 'http://bücher.example/ä'), arm(100, 'https://example.com')) },
      ];
      expect(checkRules(input, URL_CODE)).toEqual({
        ok: true,
        value: [
          { name: 'Launch', conditions: {}, target: 'https://example.com/Path?q=a%20b#Top' },
          {
            conditions: {},
            target: {
              split: [
                { url: 'http://xn--bcher-kva.example/%C3%A4', weight: 1 },
                { url: 'https://example.com/', weight: 100 },
              ],
            },
          },
        ],
      });
    });

    test('20 rules, 10 arms, weights 1 and 100, a foreign host on the service’s port', () => {
      const tenArms = split(...Array.from({ length: 10 }, (_, index) => arm(index === 0 ? 1 : 100, `https://example.com/${index}`)));
      const rules = [...Array(19).fill(VALID_RULE), { conditions: {}, target: tenArms }];
      const result = checkRules(rules, URL_CODE);
      expect(result.ok && result.value).toHaveLength(20);
      expect(fieldsOf(withTarget(0, 'https://other.example.com:3000/r/x'))).toEqual([]);
    });
  });
});

describe('maxScansProblem', () => {
  test.each<[unknown, boolean]>([
    [1, true],
    [100, true],
    [2_147_483_647, true],
    [2_147_483_648, false],
    [0, false],
    [-5, false],
    [1.5, false],
    ['100', false],
    [null, false],
  ])('%p: accepted %p', (value, accepted) => {
    expect(maxScansProblem(value)).toEqual(accepted ? null : { field: 'max_scans', message: expect.stringContaining('at least 1') });
  });
});

describe('passwordProblem', () => {
  test.each<[string, unknown, boolean]>([
    ['3 characters', 'abc', false],
    ['4 characters', 'abcd', true],
    ['128 characters', 'a'.repeat(128), true],
    ['129 characters', 'a'.repeat(129), false],
    ['3 emoji (6 UTF-16 units)', '😀😀😀', false],
    ['4 emoji', '😀😀😀😀', true],
    ['128 emoji (256 UTF-16 units)', '😀'.repeat(128), true],
    ['129 emoji', '😀'.repeat(129), false],
    ['a number', 12345, false],
    ['empty', '', false],
  ])('%s: accepted %p', (_case, value, accepted) => {
    expect(passwordProblem(value)).toEqual(accepted ? null : { field: 'password', message: expect.stringContaining('4 to 128') });
  });
});

describe('checkFallbackUrl', () => {
  test.each<[string, unknown, string | null]>([
    ['a URL, normalised', 'HTTPS://Example.com', 'https://example.com/'],
    ['javascript:', 'javascript:alert(1)', null],
    ['user and password', 'https://user:pass@example.com/', null],
    ['the redirect host', 'https://r.example.com/r/abc', null],
    ['localhost on the API port', 'http://localhost:3000/', null],
    ['not a string', 1, null],
  ])('%s', (_case, value, normalised) => {
    const result = checkFallbackUrl(value, ownHosts);
    if (normalised === null)
      expect(result).toEqual({ ok: false, errors: [{ field: 'fallback_url', message: expect.stringMatching(/^fallback_url /) }] });
    else expect(result).toEqual({ ok: true, value: normalised });
  });
});

describe('checkUtm', () => {
  test.each<[string, unknown, string[]]>([
    ['not an object', 'utm_source=x', ['utm']],
    ['empty', {}, ['utm']],
    ['an unknown field', { source: 'news', id: '1' }, ['utm.id']],
    ['a blank value', { source: ' ' }, ['utm.source']],
    ['a value that is not a string', { medium: 5 }, ['utm.medium']],
    ['a value of 201 characters', { campaign: 'c'.repeat(201) }, ['utm.campaign']],
    ['several problems', { source: '', utm_medium: 'x' }, ['utm.source', 'utm.utm_medium']],
  ])('refuses %s', (_case, value, fields) => {
    const result = checkUtm(value);
    expect(result.ok ? [] : result.errors.map((error) => error.field)).toEqual(fields);
  });

  test('accepts the five fields as given', () => {
    const utm = { source: 'poster', medium: 'print', campaign: 'spring 2027', term: 'qr', content: 'a'.repeat(200) };
    expect(checkUtm(utm)).toEqual({ ok: true, value: utm });
  });
});
