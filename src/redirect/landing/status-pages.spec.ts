import { parsePage, text } from './__fixtures__/hostile-page';
import { ERROR_PAGE, EXPIRED_PAGE, NOT_FOUND_PAGE, PAUSED_PAGE, UNAVAILABLE_PAGE } from './status-pages';

describe('status pages', () => {
  it.each([
    ['paused', PAUSED_PAGE, 'This code is paused'],
    ['expired', EXPIRED_PAGE, 'This code has expired'],
    ['not found', NOT_FOUND_PAGE, 'Code not found'],
    ['unavailable', UNAVAILABLE_PAGE, 'Temporarily unavailable'],
    ['error', ERROR_PAGE, 'Something went wrong'],
  ])('%s: the same document as the content pages, a heading, a sentence, an icon, no links', (_case, html, heading) => {
    const page = parsePage(html);
    expect([text(page, 'h1'), text(page, 'title')]).toEqual([heading, heading]);
    expect(text(page, '.message')!.length).toBeGreaterThan(20);
    expect(page('.badge svg').length).toBe(1);
    expect(page('a').length).toBe(0);
  });
});
