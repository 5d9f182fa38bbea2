import { contentLinesText, foldContentLine, singleLineValue } from './content-lines';

const octets = (line: string) => Buffer.byteLength(line);

describe('foldContentLine', () => {
  it.each([
    ['a short line', 'SUMMARY:Open day', ['SUMMARY:Open day']],
    ['exactly 75 octets', `X:${'a'.repeat(73)}`, [`X:${'a'.repeat(73)}`]],
    ['76 octets', `X:${'a'.repeat(74)}`, [`X:${'a'.repeat(73)}`, ' a']],
  ])('%s', (_case, line, lines) => {
    expect(foldContentLine(line).split('\r\n')).toEqual(lines);
  });

  it.each([
    ['two-octet letters', `NOTE:${'ö'.repeat(200)}`],
    ['four-octet emoji', `FN:${'👩🏽‍💻'.repeat(40)}`],
    ['right-to-left text', `N:${'ليلى حداد '.repeat(30)}`],
    ['1,000 ASCII characters', `NOTE:${'x'.repeat(1000)}`],
  ])('%s: every physical line at most 75 octets, never a split character, unfolds to the original', (_case, line) => {
    const physical = foldContentLine(line).split('\r\n');
    expect(physical.length).toBeGreaterThan(1);
    for (const part of physical) expect(octets(part)).toBeLessThanOrEqual(75);
    for (const part of physical.slice(1)) expect(part.startsWith(' ')).toBe(true);
    expect(physical.join('\r\n').replace(/\r\n /g, '')).toBe(line);
    expect(physical.join('').includes('\ufffd')).toBe(false);
    expect(Buffer.from(physical.join('\r\n')).toString('utf8').replace(/\r\n /g, '')).toBe(line);
  });
});

describe('contentLinesText', () => {
  it('ends every line, the last one included, with CRLF', () => {
    expect(contentLinesText(['BEGIN:VCARD', 'END:VCARD'])).toBe('BEGIN:VCARD\r\nEND:VCARD\r\n');
  });
});

describe('singleLineValue', () => {
  it('removes line breaks and other control characters, so a value cannot start a property', () => {
    expect(singleLineValue('+49 30\r\nURL:javascript:alert(1)\u0000\t')).toBe('+49 30URL:javascript:alert(1)');
  });
});
