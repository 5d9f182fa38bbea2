import { describeKey, entryKeyOfUrl, lookupKeys, normalisedPath, patternKey, ThreatKeySet } from './threat-keys';

describe('normalisedPath', () => {
  it.each([
    ['/', ''],
    ['', ''],
    ['/view/bad/', '/view/bad'],
    ['//view///bad', '/view/bad'],
    ['/%7Euser/%61bc', '/~user/abc'],
    ['/a%2fb', '/a%2Fb'],
    ['/a%20b', '/a%20b'],
    [`/${'x/'.repeat(40)}`, '/x'.repeat(16)],
  ])('%s → %s', (path, normal) => {
    expect(normalisedPath(path)).toBe(normal);
  });
});

describe('entryKeyOfUrl', () => {
  it.each([
    ['https://evil.test/', 'h:evil.test'],
    ['http://EVIL.test.:8080', 'h:evil.test'],
    ['evil.test/path/', 'p:evil.test/path'],
    ['https://evil.test/a/../b', 'p:evil.test/b'],
    ['https://evil.test/?id=1', 'u:evil.test?id=1'],
    ['https://evil.test/x?id=1', 'p:evil.test/x'],
    ['https://bücher.test/x', 'p:xn--bcher-kva.test/x'],
    ['http://[2001:db8::1]/x', 'p:2001:db8::1/x'],
    ['ftp://evil.test/', null],
    ['', null],
    ['https://', null],
  ])('%s → %s', (text, key) => {
    expect(entryKeyOfUrl(text)).toBe(key);
  });
});

describe('patternKey', () => {
  it.each([
    ['evil.test', 'h:evil.test'],
    ['Evil.Test/Path/', 'p:evil.test/Path'],
    ['https://evil.test/x', 'p:evil.test/x'],
    ['evil.test/?q=1', null],
    ['evil.test/#x', null],
    ['user@evil.test', null],
    ['', null],
  ])('%s → %s', (text, key) => {
    expect(patternKey(text)).toBe(key);
  });
});

describe('lookupKeys', () => {
  it('lists the exact URL, the host and its parents, then each path prefix', () => {
    expect(lookupKeys(new URL('https://a.b.example.com/view/bad/1?x=1'))).toEqual([
      'h:a.b.example.com',
      'h:b.example.com',
      'h:example.com',
      'h:com',
      'p:a.b.example.com/view',
      'p:a.b.example.com/view/bad',
      'p:a.b.example.com/view/bad/1',
    ]);
    expect(lookupKeys(new URL('https://x.example/?id=1'))).toEqual(['u:x.example?id=1', 'h:x.example', 'h:example']);
    expect(lookupKeys(new URL('http://[2001:db8::1]:8080/'))).toEqual(['h:2001:db8::1']);
  });
});

describe('ThreatKeySet', () => {
  const set = new ThreatKeySet([
    ['h:evil.test', 'hosts'],
    ['p:sites.test/view/bad', 'urls'],
    ['u:root.test?id=42', 'urls'],
    ['h:evil.test', 'later'],
  ]);

  it.each([
    ['https://evil.test/', 'hosts'],
    ['https://deep.sub.evil.test/x', 'hosts'],
    ['https://sites.test/view/bad', 'urls'],
    ['https://sites.test/view/bad/', 'urls'],
    ['https://sites.test/view//bad/more', 'urls'],
    ['https://sites.test/view/%62ad', 'urls'],
    ['https://root.test/?id=42', 'urls'],
    ['https://root.test/?id=43', null],
    ['https://sites.test/view/good', null],
    ['https://sites.test/view/badge', null],
    ['https://sites.test/view', null],
    ['https://notevil.test/', null],
    ['https://evil.test.example/', null],
  ])('%s → %s', (url, feed) => {
    expect(set.match(lookupKeys(new URL(url)))?.feed ?? null).toBe(feed);
  });

  it('keeps the first feed of a key and counts keys once', () => {
    expect(set.size).toBe(3);
  });

  it('shows keys as people write them', () => {
    expect(['h:evil.test', 'p:sites.test/view/bad', 'u:root.test?id=42'].map(describeKey)).toEqual([
      'evil.test',
      'sites.test/view/bad',
      'root.test/?id=42',
    ]);
  });
});
