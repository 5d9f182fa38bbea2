import { load, type CheerioAPI } from 'cheerio';

/** Values a code's owner could store, each trying to break out of its place in a page or a file. */
export const HOSTILE = {
  quotes: `"double" 'single' \`back\` &amp; &lt;`,
  script: '<script>alert(1)</script>',
  tag: '<img src=x onerror="alert(1)">',
  javascriptUrl: 'javascript:alert(document.cookie)',
  rtl: 'ليلى حداد',
  emoji: '👩🏽‍💻 Zoë 🌟',
  long: 'x'.repeat(1000),
  lines: 'first line\r\nBEGIN:VEVENT\nsecond; with, delimiters\\',
} as const;

/** Every hostile value joined, for fields that take any text. */
export const ALL_HOSTILE = Object.values(HOSTILE).join(' ');

/**
 * Parses a page by the HTML standard's rules (parse5, as a browser parses) and fails when anything
 * in it could run or load: a script, an event handler, a link to other than the schemes a page uses.
 */
export function parsePage(html: string): CheerioAPI {
  const page = load(html);
  expect(page('script, iframe, object, embed, img, link, base, form, meta[http-equiv]').length).toBe(0);
  for (const element of page('*').toArray()) {
    if ('attribs' in element) for (const name of Object.keys(element.attribs)) expect(name).not.toMatch(/^on/i);
  }
  for (const href of hrefs(page)) expect(href).toMatch(/^(https:|http:|tel:|mailto:|sms:|geo:|[A-Za-z0-9]+\/(contact\.vcf|event\.ics)$)/);
  expect(page('h1').length).toBe(1);
  expect(page('html').attr('lang')).toBe('en');
  return page;
}

/** `text` as a page shows it: HTML parsing turns every CRLF and lone CR into LF. */
export const asParsed = (text: string) => text.replace(/\r\n?/g, '\n');

/** The text of the first match, or null when nothing matches. */
export function text(page: CheerioAPI, selector: string): string | null {
  const found = page(selector).first();
  return found.length === 0 ? null : found.text();
}

export function hrefs(page: CheerioAPI, selector = 'a'): Array<string | undefined> {
  return page(selector)
    .toArray()
    .map((link) => page(link).attr('href'));
}

/** Label, value text and link of each detail row. */
export function rowsOf(page: CheerioAPI): Array<[string, string, string | null]> {
  return page('.row')
    .toArray()
    .map((row) => [page(row).find('.label').text(), page(row).find('.value').text(), page(row).attr('href') ?? null]);
}
