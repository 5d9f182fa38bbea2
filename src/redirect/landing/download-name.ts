import contentDisposition from 'content-disposition';

/** Long enough for any real name, short enough for every file system. */
const MAX_NAME_LENGTH = 80;

/**
 * `Content-Disposition: attachment` for a file named after what it holds ("Ada Lovelace.vcf"):
 * characters no file system takes are dropped, the name is kept in UTF-8 (filename*) with an ASCII
 * fallback for old clients (accents stripped: "Zoë" → "Zoe"), and `fallback` names a file whose
 * name has nothing left.
 */
export function attachmentDisposition(name: string, extension: string, fallback: string): string {
  const cleaned = fileNamePart(name) || fallback;
  const ascii = fileNamePart(cleaned.normalize('NFKD').replace(/[^\x20-\x7e]/g, '')) || fallback;
  return contentDisposition(`${cleaned}.${extension}`, { fallback: `${ascii}.${extension}` });
}

function fileNamePart(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are among what file names cannot hold
  const safe = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ').replace(/\s+/g, ' ');
  return Array.from(safe)
    .slice(0, MAX_NAME_LENGTH)
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '');
}
