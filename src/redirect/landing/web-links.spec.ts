import { linkedTextHtml, webHref } from './web-links';

describe('webHref', () => {
  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['  http://example.com  ', 'http://example.com'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['java\tscript:alert(1)', null],
    ['data:text/html,<b>x</b>', null],
    ['vbscript:msgbox(1)', null],
    ['file:///etc/passwd', null],
    ['https://user:pass@example.com', null],
    ['//example.com', null],
    ['example.com', null],
  ])('%j → %j', (url, href) => {
    expect(webHref(url)).toBe(href);
  });
});

describe('linkedTextHtml', () => {
  const link = (url: string) => `<a href="${url}" rel="nofollow noopener noreferrer">${url}</a>`;
  it.each([
    ['plain text', 'no links here', 'no links here'],
    ['a URL ending a sentence', 'See https://example.com/a.', `See ${link('https://example.com/a')}.`],
    ['a URL in brackets', '(https://example.com/a)', `(${link('https://example.com/a')})`],
    ['a URL with its own brackets', 'https://en.example.org/wiki/QR_(code)', link('https://en.example.org/wiki/QR_(code)')],
    ['a query, escaped in the attribute', 'https://example.com/?a=1&b="2"', `${link('https://example.com/?a=1&amp;b=')}&quot;2&quot;`],
    ['two URLs', 'https://a.example and http://b.example!', `${link('https://a.example')} and ${link('http://b.example')}!`],
    ['markup around a URL', '<b>https://example.com</b>', `&lt;b&gt;${link('https://example.com')}&lt;/b&gt;`],
    ['a URL with a user name stays text', 'https://user:pw@example.com', 'https://user:pw@example.com'],
    ['javascript: stays text', 'javascript:alert("x")', 'javascript:alert(&quot;x&quot;)'],
  ])('%s', (_case, input, html) => {
    expect(linkedTextHtml(input)).toBe(html);
  });
});
