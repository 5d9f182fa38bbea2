import { parseQueryString } from './query-string';

describe('parseQueryString', () => {
  it.each([
    ['page=2&limit=10', { page: '2', limit: '10' }],
    ['search=a+b%20c', { search: 'a b c' }],
    ['search=%25', { search: '%' }],
    ['search=%00', { search: '\u0000' }],
    ['search=%ED%A0%80%00', { search: '\uFFFD\uFFFD\uFFFD\u0000' }],
    ['search=%zz', { search: '%zz' }],
    ['type=url&type=text', { type: ['url', 'text'] }],
    ['', {}],
  ])('%s', (query, expected) => {
    expect({ ...parseQueryString(query) }).toEqual({ ...expected });
  });

  it('keeps __proto__ a plain key: no prototype is touched', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(Object.getOwnPropertyNames(parsed).sort()).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
