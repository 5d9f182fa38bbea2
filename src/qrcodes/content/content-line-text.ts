/**
 * TEXT values inside vCard 3.0 (RFC 2426 §4) and iCalendar (RFC 5545 §3.3.11) content lines:
 * backslash, comma and semicolon are escaped with a backslash, and a line break becomes the two
 * characters `\n` so the value cannot start a new property. Colons need no escape: only the first
 * colon of a line separates name from value.
 */
export function escapeContentLineText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Content lines end with CRLF, the last one included (RFC 2426 §4, RFC 5545 §3.1). */
export function joinContentLines(lines: string[]): string {
  return lines.map((line) => `${line}\r\n`).join('');
}
