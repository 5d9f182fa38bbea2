import { escapeContentLineText as text } from '../../qrcodes/content/content-line-text';
import type { EventContent } from '../../qrcodes/content/event.encoder';
import { formatICalendarUtc, parseIsoDateTime } from '../../common/time/iso-date-time';
import { contentLinesText } from './content-lines';
import { isFilled } from './filled-text';

/** Names this service as the file's producer (RFC 5545 §3.7.3). */
const PRODUCT_ID = '-//qr-service//landing page//EN';

/**
 * The event as an iCalendar file (`event.ics`, RFC 5545) that calendar apps import: a VCALENDAR
 * with one VEVENT, times in UTC. `uid` names the event for good (the code's id), so importing it
 * again after a change updates the event instead of adding a second one; `stamp` is when the file
 * was made (DTSTAMP). An event without an end is a moment, as RFC 5545 reads a DTSTART alone.
 */
export function eventFile(content: EventContent, uid: string, stamp: number): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${text(uid)}`,
    `DTSTAMP:${formatICalendarUtc(stamp)}`,
    `DTSTART:${utcTime(content.start)}`,
  ];
  if (content.end !== undefined) lines.push(`DTEND:${utcTime(content.end)}`);
  lines.push(`SUMMARY:${text(content.title)}`);
  if (isFilled(content.location)) lines.push(`LOCATION:${text(content.location)}`);
  if (isFilled(content.description)) lines.push(`DESCRIPTION:${text(content.description)}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return contentLinesText(lines);
}

function utcTime(isoDateTime: string): string {
  const epochMilliseconds = parseIsoDateTime(isoDateTime);
  if (epochMilliseconds === null) throw new RangeError(`not an ISO 8601 date-time: ${isoDateTime}`);
  return formatICalendarUtc(epochMilliseconds);
}
