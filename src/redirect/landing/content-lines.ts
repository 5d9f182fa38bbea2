/**
 * Content lines of the downloadable files, vCard (RFC 2426 / 6350) and iCalendar (RFC 5545): each
 * ends with CRLF, and a line longer than 75 octets is folded (CRLF and one space) so strict readers
 * take it. A fold never splits a UTF-8 character.
 */

const MAX_LINE_OCTETS = 75;

export function contentLinesText(lines: string[]): string {
  return lines.map((line) => `${foldContentLine(line)}\r\n`).join('');
}

export function foldContentLine(line: string): string {
  if (Buffer.byteLength(line) <= MAX_LINE_OCTETS) return line;
  let folded = '';
  let octets = 0;
  for (const character of line) {
    const size = Buffer.byteLength(character);
    if (octets + size > MAX_LINE_OCTETS) {
      folded += '\r\n ';
      octets = 1; // the continuation's leading space
    }
    folded += character;
    octets += size;
  }
  return folded;
}

/**
 * A value of a type the formats do not escape (a phone number, a URI) as one line: validation keeps
 * line breaks out of such fields, and this keeps a stored value from starting a property of its own.
 */
export function singleLineValue(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern removes
  return value.replace(/[\u0000-\u001f\u007f]/g, '');
}
