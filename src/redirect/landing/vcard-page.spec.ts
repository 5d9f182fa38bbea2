import { ALL_HOSTILE, asParsed, HOSTILE, hrefs, parsePage, rowsOf, text } from './__fixtures__/hostile-page';
import { vcardPage } from './vcard-page';

describe('vcardPage', () => {
  const download = 'AbCd1234/contact.vcf';

  it('lays out a full card: initials, name, title and organisation, "Save contact", one row per detail that does what it says', () => {
    const page = parsePage(
      vcardPage(
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          title: 'Chief Mathematician',
          organization: 'Engines Ltd',
          phone: '+44 (20) 7946-0000',
          mobile: '+44 7700 900123',
          email: 'ada@example.com',
          website: 'https://example.com/ada?x=1&y=2',
          address: { street: '1 Example St', city: 'London', postcode: 'N1 9GU', country: 'UK' },
          note: 'Line one\nLine two',
        },
        download,
      ),
    );
    expect(text(page, '.badge')).toBe('AL');
    expect(text(page, '.kind')).toBe('Contact');
    expect(text(page, 'h1')).toBe('Ada Lovelace');
    expect(text(page, '.sub')).toBe('Chief Mathematician · Engines Ltd');
    expect(text(page, 'title')).toBe('Ada Lovelace · Contact');
    const save = page('a.primary');
    expect([save.attr('href'), save.attr('download') !== undefined, save.text()]).toEqual([download, true, 'Save contact']);
    expect(rowsOf(page)).toEqual([
      ['Phone', '+44 (20) 7946-0000', 'tel:+442079460000'],
      ['Mobile', '+44 7700 900123', 'tel:+447700900123'],
      ['Email', 'ada@example.com', 'mailto:ada@example.com'],
      ['Website', 'https://example.com/ada?x=1&y=2', 'https://example.com/ada?x=1&y=2'],
      [
        'Address',
        '1 Example St\nN1 9GU London\nUK',
        'https://www.google.com/maps/search/?api=1&query=1%20Example%20St%2C%20N1%209GU%20London%2C%20UK',
      ],
      ['Note', 'Line one\nLine two', null],
    ]);
  });

  it('shows a name-only card with just its name and the save button', () => {
    const page = parsePage(vcardPage({ last_name: 'Hopper' }, download));
    expect([text(page, 'h1'), text(page, '.badge'), text(page, '.sub'), page('.row').length]).toEqual(['Hopper', 'H', null, 0]);
  });

  it('escapes every field: hostile text stays text, in its place', () => {
    const html = vcardPage(
      {
        first_name: HOSTILE.script,
        last_name: HOSTILE.quotes,
        title: HOSTILE.tag,
        organization: ALL_HOSTILE,
        note: ALL_HOSTILE,
        address: { street: HOSTILE.tag, city: HOSTILE.quotes },
      },
      download,
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    const page = parsePage(html);
    expect(text(page, 'h1')).toBe(`${HOSTILE.script} ${HOSTILE.quotes}`);
    expect(text(page, '.sub')).toBe(`${HOSTILE.tag} · ${asParsed(ALL_HOSTILE)}`);
    expect(rowsOf(page).map(([label, value]) => [label, value])).toEqual([
      ['Address', `${HOSTILE.tag}\n${HOSTILE.quotes}`],
      ['Note', asParsed(ALL_HOSTILE)],
    ]);
  });

  it.each([
    ['javascript:', HOSTILE.javascriptUrl],
    ['mixed-case javascript:', 'JaVaScRiPt:alert(1)'],
    ['javascript: with a tab', 'java\tscript:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['a user name', 'https://user:pass@example.com/'],
  ])('never links a website that is not a plain http(s) URL (%s)', (_case, website) => {
    const page = parsePage(vcardPage({ first_name: 'Eve', website }, download));
    expect(page('.row').is('div')).toBe(true);
    expect(rowsOf(page)).toEqual([['Website', website, null]]);
    expect(hrefs(page)).toEqual([download]);
  });

  it('right-to-left and emoji names: initials are whole characters, text runs are isolated and take their own direction', () => {
    const page = parsePage(vcardPage({ first_name: HOSTILE.rtl, last_name: HOSTILE.emoji, title: 'مهندسة', organization: 'Acme' }, download));
    expect(text(page, '.badge')).toBe('ل👩🏽‍💻');
    expect(text(page, 'h1')).toBe(`${HOSTILE.rtl} ${HOSTILE.emoji}`);
    expect(page('h1').attr('dir')).toBe('auto');
    expect(
      page('.sub bdi')
        .toArray()
        .map((part) => page(part).text()),
    ).toEqual(['مهندسة', 'Acme']);
  });

  it('keeps 1,000-character fields whole (the stylesheet wraps them)', () => {
    const page = parsePage(
      vcardPage({ first_name: HOSTILE.long, organization: HOSTILE.long, note: HOSTILE.long, email: `${HOSTILE.long}@example.com` }, download),
    );
    expect(text(page, 'h1')).toBe(HOSTILE.long);
    expect(text(page, '.sub')).toBe(HOSTILE.long);
    expect(rowsOf(page).map(([label, value]) => [label, value.length])).toEqual([
      ['Email', 1012],
      ['Note', 1000],
    ]);
  });
});
