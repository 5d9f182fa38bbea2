import { asciiFileName, attachmentDisposition, matchesEtag, safeFileName } from './download';

describe('attachmentDisposition', () => {
  it.each([
    ['an ASCII name: the plain filename alone', 'Menu', 'png', `attachment; filename="Menu.png"`],
    [
      'accents: ASCII fallback and the UTF-8 name',
      'Menü Sommer',
      'pdf',
      `attachment; filename="Menu Sommer.pdf"; filename*=UTF-8''Men%C3%BC%20Sommer.pdf`,
    ],
    ['characters no file system takes', 'a/b\\c:d*e?f"g<h>i|j', 'svg', `attachment; filename="a_b_c_d_e_f_g_h_i_j.svg"`],
    [
      'no Latin letters: the fallback and the UTF-8 name',
      'ليلى',
      'vcf',
      `attachment; filename="qr-code.vcf"; filename*=UTF-8''%D9%84%D9%8A%D9%84%D9%89.vcf`,
    ],
    ['control characters', 'line\nbreak\ttab', 'png', `attachment; filename="line_break_tab.png"`],
    ['dots and spaces at the ends', '..hidden.. ', 'png', `attachment; filename="hidden.png"`],
    [
      'header syntax in the name',
      '100% "real"; =x',
      'png',
      `attachment; filename="100_ _real_ _x.png"; filename*=UTF-8''100%25%20_real_%3B%20%3Dx.png`,
    ],
    ['nothing left: the fallback', ' ... ', 'ics', `attachment; filename="qr-code.ics"`],
  ])('%s', (_case, name, extension, expected) => {
    expect(attachmentDisposition(name, extension, 'qr-code')).toBe(expected);
  });

  it('never lets a name close the quoted filename or break the header', () => {
    for (const name of ['"', '\\"', '\r\nX-Evil: 1', '\u202Egnp.exe']) {
      const header = attachmentDisposition(name, 'png', 'qr-code');
      expect(header).not.toMatch(/[\r\n\u202E]/);
      expect(header.match(/"/g)).toHaveLength(2);
    }
  });

  it('keeps long names to 100 characters and falls back when nothing is left', () => {
    expect(safeFileName('x'.repeat(300), 'qr-code')).toHaveLength(100);
    expect(safeFileName('   ', 'contact')).toBe('contact');
    expect(asciiFileName('日本語', 'event')).toBe('event');
  });
});

describe('matchesEtag', () => {
  it.each<[string | undefined, boolean]>([
    [undefined, false],
    ['"a"', true],
    ['W/"a"', true],
    ['"b", "a"', true],
    ['*', true],
    ['"b"', false],
  ])('If-None-Match %j: %s', (header, expected) => {
    expect(matchesEtag(header, '"a"')).toBe(expected);
  });
});
