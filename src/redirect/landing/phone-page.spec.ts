import { ALL_HOSTILE, asParsed, HOSTILE, hrefs, parsePage, text } from './__fixtures__/hostile-page';
import { phonePage } from './phone-page';

describe('phonePage', () => {
  it('shows the number large, "Call" with the dialable tel: URI, and the number in a field to copy', () => {
    const page = parsePage(phonePage({ number: '+49 (30) 123-4567' }));
    expect([text(page, '.kind'), text(page, 'h1'), text(page, 'a.primary')]).toEqual(['Phone', '+49 (30) 123-4567', 'Call']);
    expect(hrefs(page)).toEqual(['tel:+49301234567']);
    expect(page('input#number').val()).toBe('+49 (30) 123-4567');
  });

  it.each([
    ['script and quotes', ALL_HOSTILE],
    ['1,000 characters', HOSTILE.long],
    ['right to left', HOSTILE.rtl],
  ])('escapes a stored number that is not one (%s)', (_case, number) => {
    const html = phonePage({ number });
    expect(html).not.toMatch(/<script>|<img/);
    const page = parsePage(html);
    expect(text(page, 'h1')).toBe(asParsed(number));
    expect(page('input').val()).toBe(asParsed(number));
    expect(hrefs(page)[0]!.startsWith('tel:')).toBe(true);
  });
});
