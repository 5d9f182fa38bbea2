import type { LinkTarget } from './link-target';

/** Served with every page: nothing external, no script. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);

const STYLE = `body{font-family:system-ui,-apple-system,sans-serif;margin:0;padding:2rem 1.25rem;background:#f6f7f9;color:#111}
main{max-width:32rem;margin:0 auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
h1{font-size:1.25rem;margin:0 0 1rem}pre{white-space:pre-wrap;word-break:break-word;font:inherit;margin:0}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** The page of a non-url dynamic code: its content, escaped. */
export function contentPage(target: LinkTarget): string {
  return page(`${target.type.toUpperCase()} code`, `<pre>${escapeHtml(target.contentString)}</pre>`);
}

export const pausedPage = () => page('This code is paused', '<p>The owner has paused this QR code. Try again later.</p>');
export const expiredPage = () => page('This code has expired', '<p>This QR code is no longer active.</p>');
export const notFoundPage = () => page('Code not found', '<p>This QR code does not exist or has been deleted.</p>');
export const unavailablePage = () => page('Temporarily unavailable', '<p>This QR code cannot be opened right now. Try again in a moment.</p>');
export const errorPage = () => page('Something went wrong', '<p>This QR code could not be opened. Try again later.</p>');
