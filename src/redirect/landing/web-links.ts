import { redirectTargetProblem } from '../../qrcodes/content';
import { escapeHtml } from './html';

/**
 * A URL from a code's content becomes a link only when it passes the rule for redirect targets:
 * http or https after normalisation, no control characters, no user name or password. Anything
 * else (`javascript:`, `data:`, a `java\tscript:` trick) stays plain text. The rule's own-host
 * check is left out: a person choosing to open another short link of this service is no loop.
 */
export function webHref(url: string): string | null {
  return redirectTargetProblem(url) === null ? url.trim() : null;
}

/** Candidate URLs in free text; what follows a URL in a sentence is trimmed off below. */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+/gi;
const TRAILING_PUNCTUATION = /[.,;:!?'"\u2019\u201d]$/;
const CLOSING_BRACKETS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

/** Free text as markup: escaped, with the URLs in it that pass webHref as links. */
export function linkedTextHtml(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = trimTrailing(match[0]);
    const href = webHref(url);
    if (href === null) continue;
    html += escapeHtml(text.slice(last, match.index)) + `<a href="${escapeHtml(href)}" rel="nofollow noopener noreferrer">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(text.slice(last));
}

/** "see https://example.com/a." links https://example.com/a; "(https://example.com/(x))" keeps its balanced bracket. */
function trimTrailing(url: string): string {
  let trimmed = url;
  for (;;) {
    const lastCharacter = trimmed.at(-1) ?? '';
    const opening = CLOSING_BRACKETS[lastCharacter];
    if (TRAILING_PUNCTUATION.test(trimmed)) trimmed = trimmed.slice(0, -1);
    else if (opening !== undefined && count(trimmed, opening) < count(trimmed, lastCharacter)) trimmed = trimmed.slice(0, -1);
    else return trimmed;
  }
}

const count = (text: string, character: string) => text.split(character).length - 1;
