import { withUtm } from './utm';

describe('withUtm', () => {
  test.each<[string, string, Parameters<typeof withUtm>[1], string]>([
    ['no UTM settings', 'https://example.com/', null, 'https://example.com/'],
    ['appended as a query', 'https://example.com/', { source: 'poster', medium: 'print' }, 'https://example.com/?utm_source=poster&utm_medium=print'],
    ['after an existing query', 'https://example.com/p?a=1', { source: 'poster' }, 'https://example.com/p?a=1&utm_source=poster'],
    ['after a bare ?', 'https://example.com/p?', { source: 'poster' }, 'https://example.com/p?utm_source=poster'],
    ['after a trailing &', 'https://example.com/p?a=1&', { source: 'poster' }, 'https://example.com/p?a=1&utm_source=poster'],
    ['before the fragment', 'https://example.com/p?a=1#top', { source: 'poster' }, 'https://example.com/p?a=1&utm_source=poster#top'],
    ['before a fragment without query', 'https://example.com/p#a?b', { source: 'poster' }, 'https://example.com/p?utm_source=poster#a?b'],
    [
      'the target’s own value wins',
      'https://example.com/?utm_source=newsletter',
      { source: 'poster', campaign: 'spring' },
      'https://example.com/?utm_source=newsletter&utm_campaign=spring',
    ],
    ['an encoded name counts as present', 'https://example.com/?utm%5Fsource=x', { source: 'poster' }, 'https://example.com/?utm%5Fsource=x'],
    ['an empty own value counts as present', 'https://example.com/?utm_medium=', { medium: 'print' }, 'https://example.com/?utm_medium='],
    ['a similar name does not', 'https://example.com/?xutm_source=1', { source: 'poster' }, 'https://example.com/?xutm_source=1&utm_source=poster'],
    [
      'all five, in a fixed order, values encoded',
      'https://example.com/',
      { content: 'a&b', term: 'q r', campaign: 'spring/2027', medium: 'print', source: 'ä' },
      'https://example.com/?utm_source=%C3%A4&utm_medium=print&utm_campaign=spring%2F2027&utm_term=q%20r&utm_content=a%26b',
    ],
    ['the URL’s own query as written', 'https://example.com/?q=a%20b+c', { term: 'x' }, 'https://example.com/?q=a%20b+c&utm_term=x'],
  ])('%s', (_case, url, utm, expected) => {
    expect(withUtm(url, utm)).toBe(expected);
  });
});
