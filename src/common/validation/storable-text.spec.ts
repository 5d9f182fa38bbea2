import { unstorableTextErrors } from './storable-text';

describe('unstorableTextErrors', () => {
  it.each([
    ['plain text', { name: 'Spring poster' }, []],
    ['emoji (a surrogate pair)', { name: 'Sale 😀' }, []],
    ['RTL and CJK text', { name: 'שלום 你好' }, []],
    ['NUL in a field', { name: 'a\u0000b' }, ['name']],
    ['NUL alone', { name: '\u0000' }, ['name']],
    ['a lone high surrogate', { name: 'x\uD800' }, ['name']],
    ['a lone low surrogate', { name: '\uDC00x' }, ['name']],
    ['reversed surrogates', { name: '\uDC00\uD800' }, ['name']],
    ['a nested field', { content: { address: { city: 'a\u0000' } } }, ['content.address.city']],
    [
      'an array item',
      { style: { dotsOptions: { gradient: { colorStops: [{ color: '#fff' }, { color: '\u0000' }] } } } },
      ['style.dotsOptions.gradient.colorStops[1].color'],
    ],
    ['a field name', { 'na\u0000me': 'x' }, ['body']],
    ['two fields', { name: '\u0000', content: { text: '\uD800' } }, ['name', 'content.text']],
    ['numbers and booleans', { size: 3, dynamic: true, nothing: null }, []],
  ])('%s', (_label, value, fields) => {
    const errors = unstorableTextErrors(value);
    expect(errors.map((error) => error.field)).toEqual(fields);
    for (const error of errors) expect(error.message).toMatch(/cannot be stored/);
  });

  it('names a bare string by the path it was given (a bulk item, a query parameter)', () => {
    expect(unstorableTextErrors('\u0000', 'search')).toEqual([{ field: 'search', message: expect.stringMatching(/^search contains/) }]);
  });

  it('leaves out the paths it is told to skip', () => {
    expect(unstorableTextErrors({ qrcodes: [{ name: '\u0000' }], name: 'ok' }, '', (path) => path.startsWith('qrcodes['))).toEqual([]);
  });
});
