import { labelMixesScripts, mixedScriptLabel, unicodeHost } from './host-scripts';

describe('labelMixesScripts (UTS #39 highly restrictive)', () => {
  it.each([
    ['ASCII', 'paypal', false],
    ['Latin with diacritics', 'bücher', false],
    ['Latin with digits and hyphens', 'café-24', false],
    ['Greek', 'παράδειγμα', false],
    ['Cyrillic', 'пример', false],
    ['Cyrillic with digits', 'пример2024', false],
    ['Arabic', 'مثال', false],
    ['Japanese: Han, Hiragana, Katakana', '日本語ひらがなカタカナ', false],
    ['Japanese with Latin', 'abc東京タワー', false],
    ['the prolonged sound mark (Hiragana and Katakana)', 'ラーメン', false],
    ['Korean with Latin and Han', '한국abc中', false],
    ['Chinese with Bopomofo and Latin', '中文ㄅabc', false],
    ['Latin with one Cyrillic a', 'pаypal', true],
    ['Latin with a Greek omicron', 'gοogle', true],
    ['Cyrillic with one Latin o', 'пpимep', true],
    ['Greek with Cyrillic', 'αв', true],
    ['Hangul with Hiragana', '한ひ', true],
    ['Latin with Armenian', 'aօb', true],
    ['Cyrillic with Han', 'пр中', true],
  ])('%s: %s → %s', (_case, label, mixed) => {
    expect(labelMixesScripts(label)).toBe(mixed);
  });
});

describe('mixedScriptLabel', () => {
  it.each([
    ['ASCII host', 'www.example.com', null],
    ['single-script IDN', new URL('https://bücher.example').hostname, null],
    ['a mixed label, given in punycode', new URL('https://pаypal.example').hostname, 'pаypal'],
    ['a mixed subdomain', new URL('https://lоgin.example.com').hostname, 'lоgin'],
    ['punycode that does not decode', 'xn--zz.example', 'xn--zz'],
  ])('%s', (_case, host, label) => {
    expect(mixedScriptLabel(host)).toBe(label);
  });

  it('shows a host in its Unicode form', () => {
    expect(unicodeHost('xn--bcher-kva.example')).toBe('bücher.example');
    expect(unicodeHost('example.com')).toBe('example.com');
  });
});
