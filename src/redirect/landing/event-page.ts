import type { EventContent } from '../../qrcodes/content/event.encoder';
import { formatICalendarUtc, parseIsoDateTime } from '../../common/time/iso-date-time';
import { eventTimes } from './event-time';
import { isFilled } from './filled-text';
import { escapeHtml } from './html';
import { icon } from './icons';
import { mapSearchUrl } from './map-links';
import { landingDocument } from './page-document';
import { actions, rows, type Row } from './page-parts';
import { linkedTextHtml } from './web-links';

/**
 * An event: title, when (in the event's time zone, named), where, what; "Add to calendar" (the
 * .ics download, which every calendar app imports) and a Google Calendar link for those who
 * keep their calendar there.
 */
export function eventPage(content: EventContent, downloadHref: string): string {
  const times = eventTimes(content.start, content.end);
  const details: Row[] = [
    times === null
      ? { label: 'When', valueHtml: escapeHtml([content.start, content.end].filter((part) => part !== undefined).join(' – ')) }
      : { label: `When (${times.zone})`, valueHtml: times.lines.map((line) => escapeHtml(line)).join('<br>') },
  ];
  if (isFilled(content.location)) details.push({ label: 'Where', valueHtml: escapeHtml(content.location), href: mapSearchUrl(content.location) });
  if (isFilled(content.description)) details.push({ label: 'Details', valueHtml: linkedTextHtml(content.description) });

  const google = googleCalendarUrl(content);
  return landingDocument({
    title: content.title,
    kind: 'Event',
    badgeHtml: times === null ? icon('calendar') : `<small>${escapeHtml(times.month)}</small>${escapeHtml(times.day)}`,
    heading: content.title,
    bodyHtml:
      actions(
        { href: downloadHref, label: 'Add to calendar', icon: 'calendar', download: true },
        ...(google === null ? [] : [{ href: google, label: 'Google Calendar', icon: 'external' as const }]),
      ) + rows(details),
  });
}

/** Google Calendar's "add event" template; an event without an end is added as a moment, as in the .ics. */
export function googleCalendarUrl(content: EventContent): string | null {
  const start = parseIsoDateTime(content.start);
  const end = content.end === undefined ? start : parseIsoDateTime(content.end);
  if (start === null || end === null) return null;
  const query = new URLSearchParams({ action: 'TEMPLATE', text: content.title, dates: `${formatICalendarUtc(start)}/${formatICalendarUtc(end)}` });
  if (isFilled(content.location)) query.set('location', content.location);
  if (isFilled(content.description)) query.set('details', content.description);
  return `https://calendar.google.com/calendar/render?${query.toString()}`;
}
