import type { FieldError } from '../../common/validation/field-error';

/**
 * A dynamic code's link preview (docs/sharing.md#link-previews): what the card of a chat or social
 * app shows for its short link. Stored as the API names it; every field optional, at least one set.
 * Pure.
 */
export const PREVIEW_FIELDS = ['title', 'description', 'image_url'] as const;
export type PreviewField = (typeof PREVIEW_FIELDS)[number];
export type LinkPreviewSettings = Partial<Record<PreviewField, string>>;

export const PREVIEW_LIMITS: Record<PreviewField, number> = { title: 200, description: 1000, image_url: 2048 };

type Check<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** `preview` as sent: a non-empty object of non-blank strings; `image_url` an absolute http(s) URL. */
export function checkPreview(value: unknown): Check<LinkPreviewSettings> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.keys(value).length === 0) {
    return { ok: false, errors: [{ field: 'preview', message: `preview must be a non-empty object with ${PREVIEW_FIELDS.join(', ')}` }] };
  }
  const errors: FieldError[] = [];
  const preview: LinkPreviewSettings = {};
  for (const [key, text] of Object.entries(value as Record<string, unknown>)) {
    const field = `preview.${key}`;
    if (!(PREVIEW_FIELDS as readonly string[]).includes(key)) {
      errors.push({ field, message: `${field} is not a preview field (${PREVIEW_FIELDS.join(', ')})` });
      continue;
    }
    const limit = PREVIEW_LIMITS[key as PreviewField];
    if (typeof text !== 'string' || text.trim() === '' || text.length > limit) {
      errors.push({ field, message: `${field} must be a non-blank string of at most ${limit} characters` });
    } else if (key === 'image_url' && !isAbsoluteHttpUrl(text)) {
      errors.push({ field, message: `${field} must be an absolute http(s) URL, e.g. https://example.com/card.png` });
    } else preview[key as PreviewField] = text;
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: preview };
}

function isAbsoluteHttpUrl(text: string): boolean {
  if (!/^https?:\/\//i.test(text) || /\s/.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
