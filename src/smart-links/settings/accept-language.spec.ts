import { acceptedLanguages, preferredLanguage, preferredLanguageIn, rangeMatches } from './accept-language';

describe('acceptedLanguages', () => {
  test.each<[string, string | null | undefined, string[]]>([
    ['no header', undefined, []],
    ['null', null, []],
    ['empty', '', []],
    ['one tag', 'de', ['de']],
    ['a browser’s header', 'de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', ['de-de', 'de', 'en-us', 'en']],
    ['qualities out of order', 'en;q=0.5, fr;q=0.9, de', ['de', 'fr', 'en']],
    ['no quality is q=1', 'en;q=0.9, de', ['de', 'en']],
    ['equal qualities keep header order', 'fr;q=0.8, en;q=0.8, de;q=0.8', ['fr', 'en', 'de']],
    ['equal implicit qualities keep header order', 'it, es, pt', ['it', 'es', 'pt']],
    ['q=0 excluded', 'de;q=0, en', ['en']],
    ['q=0.000 excluded', 'de;q=0.000, en;q=0.001', ['en']],
    ['three decimals are kept apart', 'de;q=0.001, en;q=0.002', ['en', 'de']],
    ['q=1.000 is q=1', 'de;q=0.9, en;q=1.000', ['en', 'de']],
    ['* skipped', '*, de;q=0.5', ['de']],
    ['*;q=0.1 skipped', 'de, *;q=0.1', ['de']],
    ['upper case lower-cased', 'DE-AT, EN-us;Q=0.5', ['de-at', 'en-us']],
    ['whitespace around tags and parameters', '  de-AT ; q = 0.4 ,en  ', ['en', 'de-at']],
    ['a tag with digits', 'es-419, de', ['es-419', 'de']],
    ['a tag with a script and region', 'zh-Hant-TW;q=0.9, zh', ['zh', 'zh-hant-tw']],
    ['malformed tag skipped', 'de_DE, en, 123, -x, de-, a b, fr', ['en', 'fr']],
    ['over-long subtag skipped', 'abcdefghi, de-abcdefghi, de', ['de']],
    ['a malformed quality skips its entry', 'de;q=abc, en;q=0.5', ['en']],
    ['a quality above 1 is malformed', 'de;q=1.5, en;q=0.5', ['en']],
    ['a quality with four decimals is malformed', 'de;q=0.1234, en;q=0.5', ['en']],
    ['a negative quality is malformed', 'de;q=-1, en;q=0.5', ['en']],
    ['an empty quality is malformed', 'de;q=, en;q=0.5', ['en']],
    ['other parameters ignored', 'de;level=1, en;q=0.5', ['de', 'en']],
    ['empty entries skipped', ',,de,,', ['de']],
  ])('%s: %p', (_case, header, expected) => {
    expect(acceptedLanguages(header)).toEqual(expected);
  });

  test('reads at most 20 entries of a long header', () => {
    const tags = Array.from({ length: 30 }, (_, index) => String.fromCharCode(97 + Math.floor(index / 26), 97 + (index % 26)));
    expect(acceptedLanguages(tags.join(','))).toEqual(tags.slice(0, 20));
    expect(acceptedLanguages(`${'zz,'.repeat(20)}de`)).not.toContain('de');
  });
});

describe('rangeMatches', () => {
  test.each<[string, string, boolean]>([
    ['de', 'de', true],
    ['de', 'de-at', true],
    ['de', 'de-at-x-y', true],
    ['de-at', 'de-at', true],
    ['de-at', 'de', false],
    ['de-at', 'de-ch', false],
    ['de', 'deu', false],
    ['de', 'dé', false],
    ['en', 'de-en', false],
    ['zh-hant', 'zh-hant-tw', true],
  ])('range %s, tag %s: %p', (range, tag, expected) => {
    expect(rangeMatches(range, tag)).toBe(expected);
  });
});

describe('preferredLanguageIn', () => {
  test.each<[string, string[], boolean]>([
    ['de-AT,en;q=0.5', ['de'], true],
    ['de,en;q=0.5', ['de-at'], false],
    ['en;q=0.5,de-AT', ['de'], true],
    ['en,de;q=0.9', ['de'], false],
    ['en,de;q=0.9', ['fr', 'en'], true],
    ['*,de;q=0.1', ['de'], true],
    ['de;q=0', ['de'], false],
    ['', ['de'], false],
  ])('Accept-Language %p, ranges %p: %p', (header, ranges, expected) => {
    expect(preferredLanguageIn(preferredLanguage(header), ranges)).toBe(expected);
    // A second read of the same header comes from memory and answers alike.
    expect(preferredLanguageIn(preferredLanguage(header), ranges)).toBe(expected);
  });
});

describe('preferredLanguage', () => {
  test.each<[string | null | undefined, string | null]>([
    [undefined, null],
    [null, null],
    ['', null],
    ['*', null],
    ['en;q=0.5, DE-at', 'de-at'],
    ['de-DE,de;q=0.9,en-US;q=0.8', 'de-de'],
  ])('%p: %p', (header, expected) => {
    expect(preferredLanguage(header)).toBe(expected);
  });

  test('stays right past the number of headers it remembers', () => {
    for (let i = 0; i < 2500; i++)
      expect(preferredLanguage(`x${i.toString(36)};q=0.5, de-${i.toString(36).padStart(2, '0')}`)).toBe(`de-${i.toString(36).padStart(2, '0')}`);
  });
});
