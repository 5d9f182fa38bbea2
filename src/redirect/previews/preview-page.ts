import { escapeHtml } from '../landing/html';

/** What a chat app's card shows for a short link: the owner's words, or the code's own. */
export interface LinkPreview {
  title: string;
  description: string | null;
  /** Absolute URL of the card's image (the code's own QR image when the owner set none). */
  imageUrl: string;
  /** The short link the bot asked for. */
  url: string;
  /** Whether the image is the owner's (a large card), not the code's square QR image (a small one). */
  ownImage: boolean;
}

/**
 * The page a link-preview bot gets instead of the redirect: Open Graph and Twitter card tags, and a
 * visible title for anything that shows the page itself. No script, not indexed.
 */
export function previewPageHtml(preview: LinkPreview): string {
  const meta = (attribute: 'property' | 'name', name: string, content: string) => `<meta ${attribute}="${name}" content="${escapeHtml(content)}">`;
  const tags = [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:url', preview.url),
    meta('property', 'og:title', preview.title),
    ...(preview.description ? [meta('property', 'og:description', preview.description), meta('name', 'description', preview.description)] : []),
    meta('property', 'og:image', preview.imageUrl),
    meta('name', 'twitter:card', preview.ownImage ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', preview.title),
    ...(preview.description ? [meta('name', 'twitter:description', preview.description)] : []),
    meta('name', 'twitter:image', preview.imageUrl),
  ];
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">' +
    `<title>${escapeHtml(preview.title)}</title>${tags.join('')}</head>` +
    `<body><h1>${escapeHtml(preview.title)}</h1>${preview.description ? `<p>${escapeHtml(preview.description)}</p>` : ''}</body></html>`
  );
}
