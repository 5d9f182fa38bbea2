import { escapeContentLineText, joinContentLines } from './content-line-text';
import { formatICalendarUtc, parseIsoDateTime } from '../../common/time/iso-date-time';

export interface EventContent {
  title: string;
  /** ISO 8601 date-time */
  start: string;
  /** ISO 8601 date-time after start */
  end?: string;
  location?: string;
  description?: string;
}

/**
 * An iCalendar VEVENT (RFC 5545) as scanner apps read it: the bare component without a VCALENDAR
 * wrapper, times in UTC. UID and DTSTAMP are left out: they would make the encoding depend on
 * when it ran, and readers add their own when saving the event.
 */
export function encodeEvent(content: EventContent): string {
  const lines = ['BEGIN:VEVENT', `SUMMARY:${escapeContentLineText(content.title)}`, `DTSTART:${icalendarTime(content.start)}`];
  if (content.end !== undefined) lines.push(`DTEND:${icalendarTime(content.end)}`);
  if (content.location !== undefined) lines.push(`LOCATION:${escapeContentLineText(content.location)}`);
  if (content.description !== undefined) lines.push(`DESCRIPTION:${escapeContentLineText(content.description)}`);
  lines.push('END:VEVENT');
  return joinContentLines(lines);
}

function icalendarTime(isoDateTime: string): string {
  const epochMilliseconds = parseIsoDateTime(isoDateTime);
  if (epochMilliseconds === null) throw new RangeError(`not an ISO 8601 date-time: ${isoDateTime}`);
  return formatICalendarUtc(epochMilliseconds);
}
