import { ALL_HOSTILE, HOSTILE, hrefs, parsePage, rowsOf, text } from './__fixtures__/hostile-page';
import { emailPage } from './email-page';

describe('emailPage', () => {
  it('shows the address, subject and message, "Write email" with the percent-encoded mailto: URI, and the address to copy', () => {
    const page = parsePage(emailPage({ to: 'hello@example.com', subject: 'Order 12 & more', body: 'Hi there\nline 2' }));
    expect([text(page, '.kind'), text(page, 'h1'), text(page, 'a.primary')]).toEqual(['Email', 'hello@example.com', 'Write email']);
    expect(hrefs(page)).toEqual(['mailto:hello@example.com?subject=Order%2012%20%26%20more&body=Hi%20there%0D%0Aline%202']);
    expect(rowsOf(page)).toEqual([
      ['Subject', 'Order 12 & more', null],
      ['Message', 'Hi there\nline 2', null],
    ]);
    expect(page('input#address').val()).toBe('hello@example.com');
  });

  it('lets the heading wrap only after the @ and the dots of the address', () => {
    expect(emailPage({ to: 'support@example.com' })).toContain('<h1 dir="auto">support@<wbr>example.<wbr>com</h1>');
  });

  it('an address alone: no rows, just the action and the field', () => {
    const page = parsePage(emailPage({ to: 'a@example.com' }));
    expect([hrefs(page), page('.row').length]).toEqual([['mailto:a@example.com'], 0]);
  });

  it('escapes hostile text; an address with URI delimiters cannot add headers to the mailto: link', () => {
    const html = emailPage({
      to: `x@example.com?bcc=spy@evil.example&${HOSTILE.quotes}`,
      subject: ALL_HOSTILE,
      body: `${HOSTILE.lines}${HOSTILE.long}`,
    });
    expect(html).not.toMatch(/<script>|<img/);
    const page = parsePage(html);
    expect(text(page, 'h1')).toBe(`x@example.com?bcc=spy@evil.example&${HOSTILE.quotes}`);
    const href = new URL(hrefs(page)[0]!);
    expect(href.pathname.startsWith('x@example.com%3Fbcc%3Dspy@evil.example%26')).toBe(true);
    expect([...href.searchParams.keys()]).toEqual(['subject', 'body']);
    expect(href.searchParams.get('subject')).toBe(ALL_HOSTILE);
  });
});
