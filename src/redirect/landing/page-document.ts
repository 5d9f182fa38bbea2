import { escapeHtml } from './html';
import { PAGE_STYLE } from './page-style';

/**
 * One landing page. Plain-text parts are escaped here; parts whose name ends in `Html` are markup
 * the caller built (with escapeHtml for every value in it).
 */
export interface LandingDocument {
  /** what the page shows, for the window title */
  title: string;
  /** the small label above the heading ("Contact", "Wi-Fi network"); none on status pages */
  kind?: string;
  /** the round badge above the heading: an icon or a contact's initials (decorative) */
  badgeHtml: string;
  heading: string;
  /** markup for the heading when it needs more than its text (line-break opportunities); else `heading`, escaped */
  headingHtml?: string;
  /** the line under the heading */
  subHtml?: string;
  bodyHtml: string;
}

/**
 * The whole HTML document: English, not indexed, no referrer, no script; iOS is told not to turn
 * numbers into links of its own (the page links what it means to).
 */
export function landingDocument(page: LandingDocument): string {
  const title = page.kind === undefined ? page.title : `${page.title} · ${page.kind}`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    '<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer">' +
    '<meta name="color-scheme" content="light dark"><meta name="format-detection" content="telephone=no,email=no,address=no">' +
    `<title>${escapeHtml(title)}</title><style>${PAGE_STYLE}</style></head>` +
    `<body><main><header><div class="badge" aria-hidden="true">${page.badgeHtml}</div>` +
    (page.kind === undefined ? '' : `<p class="kind">${escapeHtml(page.kind)}</p>`) +
    `<h1 dir="auto">${page.headingHtml ?? escapeHtml(page.heading)}</h1>` +
    (page.subHtml === undefined ? '' : `<p class="sub">${page.subHtml}</p>`) +
    `</header>${page.bodyHtml}</main></body></html>`
  );
}
