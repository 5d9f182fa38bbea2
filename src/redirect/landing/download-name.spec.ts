import { attachmentDisposition } from './download-name';

describe('attachmentDisposition', () => {
  it.each([
    ['an ASCII name', 'Ada Lovelace', 'attachment; filename="Ada Lovelace.vcf"'],
    [
      'accents: ASCII fallback and the UTF-8 name',
      'Zoë Müller',
      `attachment; filename="Zoe Muller.vcf"; filename*=UTF-8''Zo%C3%AB%20M%C3%BCller.vcf`,
    ],
    [
      'right to left: a fallback name and the UTF-8 name',
      'ليلى',
      `attachment; filename="contact.vcf"; filename*=UTF-8''%D9%84%D9%8A%D9%84%D9%89.vcf`,
    ],
    ['characters no file system takes, quotes and a path', '../"a/b\\c:d*e?f<g>h|i\r\nj', 'attachment; filename="a b c d e f g h i j.vcf"'],
    ['nothing left', ' ... ', 'attachment; filename="contact.vcf"'],
  ])('%s', (_case, name, header) => {
    expect(attachmentDisposition(name, 'vcf', 'contact')).toBe(header);
  });

  it('cuts a long name to 80 characters', () => {
    expect(attachmentDisposition('x'.repeat(1000), 'ics', 'event')).toBe(`attachment; filename="${'x'.repeat(80)}.ics"`);
  });
});
