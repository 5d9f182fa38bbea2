import { asciiFileName, attachmentDisposition, safeFileName } from './content-disposition';

describe('attachmentDisposition', () => {
  it.each([
    ['Menu', 'png', `attachment; filename="Menu.png"; filename*=UTF-8''Menu.png`],
    ['Menü Sommer', 'pdf', `attachment; filename="Menu Sommer.pdf"; filename*=UTF-8''Men%C3%BC%20Sommer.pdf`],
    ['a/b\\c:d*e?f"g<h>i|j', 'svg', `attachment; filename="a_b_c_d_e_f_g_h_i_j.svg"; filename*=UTF-8''a_b_c_d_e_f_g_h_i_j.svg`],
    ['Σαρώστε', 'png', `attachment; filename="qr-code.png"; filename*=UTF-8''%CE%A3%CE%B1%CF%81%CF%8E%CF%83%CF%84%CE%B5.png`],
    ['line\nbreak\ttab', 'png', `attachment; filename="line_break_tab.png"; filename*=UTF-8''line_break_tab.png`],
    ['..hidden.. ', 'png', `attachment; filename="hidden.png"; filename*=UTF-8''hidden.png`],
    ['100% "real"; =x', 'png', `attachment; filename="100_ _real_ _x.png"; filename*=UTF-8''100%25%20_real_%3B%20%3Dx.png`],
  ])('%j as .%s', (name, extension, expected) => {
    expect(attachmentDisposition(name, extension)).toBe(expected);
  });

  it('never lets a name close the quoted filename or break the header', () => {
    for (const name of ['"', '\\"', '\r\nX-Evil: 1', '\u202Egnp.exe']) {
      const header = attachmentDisposition(name, 'png');
      expect(header).not.toMatch(/[\r\n\u202E]/);
      expect(header.match(/"/g)).toHaveLength(2);
    }
  });

  it('keeps long names to 100 characters and falls back to qr-code when nothing is left', () => {
    expect(safeFileName('x'.repeat(300))).toHaveLength(100);
    expect(safeFileName('   ')).toBe('qr-code');
    expect(asciiFileName('日本語')).toBe('qr-code');
  });
});
