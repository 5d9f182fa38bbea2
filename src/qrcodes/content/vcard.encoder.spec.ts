import { type VcardContent, encodeVcard } from './vcard.encoder';

const card = (...lines: string[]) => ['BEGIN:VCARD', 'VERSION:3.0', ...lines, 'END:VCARD'].map((line) => `${line}\r\n`).join('');

describe('encodeVcard', () => {
  test.each<[string, VcardContent, string]>([
    ['first name only', { first_name: 'Ada' }, card('N:;Ada;;;', 'FN:Ada')],
    ['last name only', { last_name: 'Lovelace' }, card('N:Lovelace;;;;', 'FN:Lovelace')],
    [
      'every field',
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        organization: 'Analytical Engines',
        title: 'Mathematician',
        phone: '+44 20 7946 0000',
        mobile: '+44 7700 900000',
        email: 'ada@example.com',
        website: 'https://example.com/ada',
        address: { street: '12 St James Sq', city: 'London', region: 'Greater London', postcode: 'SW1Y 4JH', country: 'UK' },
        note: 'First programmer',
      },
      card(
        'N:Lovelace;Ada;;;',
        'FN:Ada Lovelace',
        'ORG:Analytical Engines',
        'TITLE:Mathematician',
        'TEL;TYPE=VOICE:+44 20 7946 0000',
        'TEL;TYPE=CELL:+44 7700 900000',
        'EMAIL;TYPE=INTERNET:ada@example.com',
        'URL:https://example.com/ada',
        'ADR:;;12 St James Sq;London;Greater London;SW1Y 4JH;UK',
        'NOTE:First programmer',
      ),
    ],
    [
      'missing address parts stay empty components',
      { first_name: 'A', address: { city: 'Paris', country: 'France' } },
      card('N:;A;;;', 'FN:A', 'ADR:;;;Paris;;;France'),
    ],
    [
      'commas and semicolons escaped',
      { first_name: 'Jo;hn', last_name: 'Doe, Jr.', organization: 'Smith, Jones; Partners' },
      card(String.raw`N:Doe\, Jr.;Jo\;hn;;;`, String.raw`FN:Jo\;hn Doe\, Jr.`, String.raw`ORG:Smith\, Jones\; Partners`),
    ],
    [
      'line breaks become \\n and backslashes are doubled',
      { first_name: 'A', note: 'line 1\nline 2\r\nline 3\rC:\\dir' },
      card('N:;A;;;', 'FN:A', String.raw`NOTE:line 1\nline 2\nline 3\nC:\\dir`),
    ],
    ['colon needs no escape', { first_name: 'A', title: 'Head: Research' }, card('N:;A;;;', 'FN:A', 'TITLE:Head: Research')],
    [
      'address parts escaped',
      { first_name: 'A', address: { street: 'Flat 2; 10 High St, Rear' } },
      card('N:;A;;;', 'FN:A', String.raw`ADR:;;Flat 2\; 10 High St\, Rear;;;;`),
    ],
    ['non-ASCII unchanged', { first_name: 'Zoë', last_name: '山田', organization: 'Café 😀' }, card('N:山田;Zoë;;;', 'FN:Zoë 山田', 'ORG:Café 😀')],
  ])('%s', (_case, content, expected) => {
    expect(encodeVcard(content)).toBe(expected);
  });
});
