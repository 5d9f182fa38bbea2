import type ICALModule from 'ical.js' with { 'resolution-mode': 'import' };
import { HOSTILE } from './__fixtures__/hostile-page';
import { eventFile } from './event-file';

// ical.js declares types for its ES module only; its CommonJS build (what require gives) is the same API.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as typeof ICALModule;

const STAMP = Date.UTC(2026, 0, 2, 3, 4, 5);
const UID = '5f0c1a4e-2b1d-4c7e-9a63-0d4f8e2b7c11';

function parseEvent(text: string) {
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  const calendar = new ICAL.Component(ICAL.parse(text));
  expect(calendar.name).toBe('vcalendar');
  expect([calendar.getFirstPropertyValue('version'), calendar.getFirstPropertyValue('prodid')]).toEqual(['2.0', '-//qr-service//landing page//EN']);
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  return { event: new ICAL.Event(events[0]), component: events[0] };
}

describe('eventFile', () => {
  it('writes an RFC 5545 calendar with one event that an iCalendar parser reads back: UID, DTSTAMP, times in UTC', () => {
    const { event, component } = parseEvent(
      eventFile(
        {
          title: 'Open day',
          start: '2030-06-01T18:00:00+02:00',
          end: '2030-06-01T21:00:00+02:00',
          location: 'Main Hall, Berlin',
          description: 'Free entry;\ntours hourly',
        },
        UID,
        STAMP,
      ),
    );
    expect([event.uid, event.summary, event.location, event.description]).toEqual([
      UID,
      'Open day',
      'Main Hall, Berlin',
      'Free entry;\ntours hourly',
    ]);
    expect(event.startDate.toJSDate().toISOString()).toBe('2030-06-01T16:00:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2030-06-01T19:00:00.000Z');
    expect(event.startDate.zone.tzid).toBe('UTC');
    expect((component.getFirstPropertyValue('dtstamp') as InstanceType<typeof ICAL.Time>).toJSDate().getTime()).toBe(STAMP);
  });

  it('an event without an end has no DTEND (a moment)', () => {
    const { component } = parseEvent(eventFile({ title: 'Call', start: '2030-03-14T09:30:00' }, UID, STAMP));
    expect(component.hasProperty('dtend')).toBe(false);
    expect((component.getFirstPropertyValue('dtstart') as InstanceType<typeof ICAL.Time>).toString()).toBe('2030-03-14T09:30:00Z');
  });

  it('hostile text stays inside its property, folded at 75 octets, and reads back exactly', () => {
    const title = `${HOSTILE.lines}${HOSTILE.script}${HOSTILE.rtl}${HOSTILE.emoji}`;
    const description = `${HOSTILE.long}\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:injected`;
    const { event } = parseEvent(eventFile({ title, start: '2030-06-01T18:00:00Z', location: HOSTILE.quotes, description }, UID, STAMP));
    expect(event.summary).toBe(title.replace(/\r\n/g, '\n'));
    expect(event.location).toBe(HOSTILE.quotes);
    expect(event.description).toBe(description.replace(/\r\n/g, '\n'));
  });

  it('refuses a start that is not an ISO 8601 date-time rather than writing a broken file', () => {
    expect(() => eventFile({ title: 'x', start: 'soon' }, UID, STAMP)).toThrow(RangeError);
  });
});
