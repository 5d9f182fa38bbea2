/**
 * The landing pages' one escaping function: every value placed into their HTML, as text or as an
 * attribute value (always double-quoted), goes through it, so no value can open markup or close its
 * attribute, whatever it holds.
 */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}

/**
 * An e-mail address (or host name) escaped, with a line-break opportunity after its `@` and after
 * each dot: a narrow screen wraps it at those points ("support@" / "example.com") instead of
 * mid-word, where the stylesheet's overflow-wrap would cut it. The address reads the same when copied.
 */
export function escapeAddress(address: string): string {
  return escapeHtml(address).replace(/([@.])(?=.)/g, '$1<wbr>');
}
