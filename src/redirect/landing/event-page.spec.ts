import { ALL_HOSTILE, asParsed, HOSTILE, hrefs, parsePage, rowsOf, text } from './__fixtures__/hostile-page';
import { eventPage, googleCalendarUrl } from './event-page';

describe('eventPage', () => {
  const download = 'AbCd1234/event.ics';
  const openDay = {
    title: 'Open day',
    start: '2030-06-01T18:00:00+02:00',
    end: '2030-06-01T21:00:00+02:00',
    location: 'Main Hall, Berlin',
    description: 'Free entry.\nSee https://example.com/day.',
  };

  it('lays out title, date badge, when in the event’s zone, where (a map link), details, "Add to calendar" and Google Calendar', () => {
    const page = parsePage(eventPage(openDay, download));
    expect([text(page, '.kind'), text(page, 'h1'), text(page, '.badge')]).toEqual(['Event', 'Open day', 'Jun1']);
    const [add, google] = page('.button')
      .toArray()
      .map((button) => page(button));
    expect([add.attr('href'), add.attr('download') !== undefined, add.text()]).toEqual([download, true, 'Add to calendar']);
    expect(google.text()).toBe('Google Calendar');
    expect(Object.fromEntries(new URL(google.attr('href')!).searchParams)).toEqual({
      action: 'TEMPLATE',
      text: 'Open day',
      dates: '20300601T160000Z/20300601T190000Z',
      location: 'Main Hall, Berlin',
      details: 'Free entry.\nSee https://example.com/day.',
    });
    expect(
      page('.row .value')
        .toArray()
        .map((value) => page(value).html()),
    ).toEqual([
      'Saturday 1 June 2030<br>18:00 – 21:00',
      'Main Hall, Berlin',
      'Free entry.\nSee <a href="https://example.com/day" rel="nofollow noopener noreferrer">https://example.com/day</a>.',
    ]);
    expect(rowsOf(page).map(([label, , href]) => [label, href])).toEqual([
      ['When (UTC+02:00)', null],
      ['Where', 'https://www.google.com/maps/search/?api=1&query=Main%20Hall%2C%20Berlin'],
      ['Details', null],
    ]);
  });

  it('an event without an end is a moment, in the page and in Google Calendar', () => {
    const page = parsePage(eventPage({ title: 'Call', start: '2030-03-14T09:30:00' }, download));
    expect(page('.row .value').html()).toBe('Thursday 14 March 2030<br>09:30');
    expect(text(page, '.row .label')).toBe('When (UTC)');
    expect(new URL(googleCalendarUrl({ title: 'Call', start: '2030-03-14T09:30:00' })!).searchParams.get('dates')).toBe(
      '20300314T093000Z/20300314T093000Z',
    );
  });

  it('escapes every field; only http(s) addresses in the description become links', () => {
    const html = eventPage(
      {
        title: ALL_HOSTILE,
        start: '2030-06-01T18:00:00Z',
        location: HOSTILE.tag,
        description: `${ALL_HOSTILE} https://example.com/ok ${HOSTILE.javascriptUrl}`,
      },
      download,
    );
    expect(html).not.toMatch(/<script>|<img/);
    const page = parsePage(html);
    expect(text(page, 'h1')).toBe(asParsed(ALL_HOSTILE));
    expect(text(page, 'title')).toBe(asParsed(`${ALL_HOSTILE} · Event`));
    expect(hrefs(page, '.value a')).toEqual(['https://example.com/ok']);
    expect(rowsOf(page).map(([label, value]) => [label, value])).toEqual([
      ['When (UTC)', 'Saturday 1 June 203018:00'],
      ['Where', HOSTILE.tag],
      ['Details', asParsed(`${ALL_HOSTILE} https://example.com/ok ${HOSTILE.javascriptUrl}`)],
    ]);
  });

  it('shows a stored start it cannot read as it is, without a Google Calendar link', () => {
    const page = parsePage(eventPage({ title: 'Odd', start: 'sometime <b>soon</b>' }, download));
    expect(text(page, '.row .value')).toBe('sometime <b>soon</b>');
    expect(page('.button').length).toBe(1);
  });
});
