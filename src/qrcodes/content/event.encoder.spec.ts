import { type EventContent, encodeEvent } from './event.encoder';

const vevent = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].map((line) => `${line}\r\n`).join('');

describe('encodeEvent', () => {
  test.each<[string, EventContent, string]>([
    ['title and UTC start', { title: 'Launch', start: '2025-06-01T18:00:00Z' }, vevent('SUMMARY:Launch', 'DTSTART:20250601T180000Z')],
    ['positive offset converted to UTC', { title: 'A', start: '2025-06-01T20:30:00+02:00' }, vevent('SUMMARY:A', 'DTSTART:20250601T183000Z')],
    ['negative offset crossing midnight', { title: 'A', start: '2025-03-09T22:00:00-05:00' }, vevent('SUMMARY:A', 'DTSTART:20250310T030000Z')],
    ['offset crossing the year back', { title: 'A', start: '2025-01-01T00:30:00+01:00' }, vevent('SUMMARY:A', 'DTSTART:20241231T233000Z')],
    ['compact offset +0530', { title: 'A', start: '2025-06-01T12:00:00+0530' }, vevent('SUMMARY:A', 'DTSTART:20250601T063000Z')],
    ['no offset read as UTC, seconds optional', { title: 'A', start: '2025-06-01T18:05' }, vevent('SUMMARY:A', 'DTSTART:20250601T180500Z')],
    ['fractional seconds dropped', { title: 'A', start: '2025-06-01T18:00:59.999Z' }, vevent('SUMMARY:A', 'DTSTART:20250601T180059Z')],
    [
      'every field, escaped per RFC 5545',
      {
        title: 'Launch, party; v2',
        start: '2025-06-01T20:00:00+02:00',
        end: '2025-06-02T01:15:45+02:00',
        location: 'Hall 1, Berlin; Germany',
        description: 'Bring: snacks\nand \\ drinks',
      },
      vevent(
        String.raw`SUMMARY:Launch\, party\; v2`,
        'DTSTART:20250601T180000Z',
        'DTEND:20250601T231545Z',
        String.raw`LOCATION:Hall 1\, Berlin\; Germany`,
        String.raw`DESCRIPTION:Bring: snacks\nand \\ drinks`,
      ),
    ],
    [
      'non-ASCII unchanged',
      { title: 'Fête 🎉 祭り', start: '2025-07-14T10:00:00Z', location: 'Zürich' },
      vevent('SUMMARY:Fête 🎉 祭り', 'DTSTART:20250714T100000Z', 'LOCATION:Zürich'),
    ],
  ])('%s', (_case, content, expected) => {
    expect(encodeEvent(content)).toBe(expected);
  });
});
