/**
 * The landing pages' one escaping function: every value placed into their HTML, as text or as an
 * attribute value (always double-quoted), goes through it, so no value can open markup or close its
 * attribute, whatever it holds.
 */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]);
}
