import { ALL_HOSTILE, asParsed, HOSTILE, hrefs, parsePage, text } from './__fixtures__/hostile-page';
import { textPage } from './text-page';

describe('textPage', () => {
  it('a short one-line text is the heading itself', () => {
    const page = parsePage(textPage({ text: 'Table 12, ask for the special' }));
    expect([text(page, '.kind'), text(page, 'h1'), text(page, '.text')]).toEqual(['Text', 'Table 12, ask for the special', null]);
  });

  it('a longer text is shown as written under a plain heading, with its http(s) addresses as links and nothing else', () => {
    const written =
      'Programme: https://example.com/fair?day=1&x=2.\n' +
      'Not links: javascript:alert(1), data:text/html,x, https://user:pw@example.com/, ftp://example.com/';
    const page = parsePage(textPage({ text: written }));
    expect(text(page, 'h1')).toBe('Message');
    expect(text(page, '.text')).toBe(written);
    expect(hrefs(page)).toEqual(['https://example.com/fair?day=1&x=2']);
    expect(page('.text a').attr('rel')).toBe('nofollow noopener noreferrer');
  });

  it('escapes hostile text (2,000 characters of it) and keeps it whole', () => {
    const written = `${ALL_HOSTILE}${HOSTILE.long}`;
    const html = textPage({ text: written });
    expect(html).not.toMatch(/<script>|<img/);
    const page = parsePage(html);
    expect(text(page, '.text')).toBe(asParsed(written));
    expect(hrefs(page)).toEqual([]);
  });

  it('a short text with a link is shown below the heading so that the link works', () => {
    const page = parsePage(textPage({ text: 'Menu: https://example.com/menu' }));
    expect([text(page, 'h1'), hrefs(page)]).toEqual(['Message', ['https://example.com/menu']]);
  });
});
