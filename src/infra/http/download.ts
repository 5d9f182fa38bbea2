import contentDisposition from 'content-disposition';
import type { FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';

/**
 * The one way a file is handed out for download (docs/architecture.md#shared-pieces): its
 * `Content-Disposition` (RFC 6266, written by the `content-disposition` library), its ETag and the
 * 304 that answers a matching If-None-Match, its caching. Used by the API's downloads (a code's
 * file, an export's ZIP, the CSV lists) and the redirect host's landing-page files.
 */

const MAX_NAME_LENGTH = 100;
/** Reserved on Windows or meaningful in a path or a quoted header value; control characters too. */
const UNSAFE_IN_FILE_NAMES = /[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu;
/** Kept in the plain name: letters, digits and punctuation no browser decodes or trips on (no `%`, `;`, quotes). */
const NOT_PLAIN_ASCII = /[^A-Za-z0-9 ._()+,@&!#~[\]-]+/g;
const COMBINING_MARKS = /\p{M}+/gu;

/** The name made safe for a file system: unsafe characters become `_`, dots and spaces are trimmed from the ends; `fallback` when nothing is left. */
export function safeFileName(name: string, fallback: string): string {
  const cleaned = [...name.normalize('NFC').replace(UNSAFE_IN_FILE_NAMES, '_').trim()]
    .slice(0, MAX_NAME_LENGTH)
    .join('')
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return cleaned || fallback;
}

/** An ASCII-only rendering of a safe name, for the plain `filename` parameter old clients read. */
export function asciiFileName(safeName: string, fallback: string): string {
  const ascii = safeName.normalize('NFKD').replace(COMBINING_MARKS, '').replace(NOT_PLAIN_ASCII, '_').replace(/_+/g, '_');
  return ascii.replace(/^[_.\s]+|[_.\s]+$/g, '') || fallback;
}

/**
 * `attachment` named after what the file holds ("Menü Sommer.png"): a plain `filename` every client
 * understands (ASCII, accents stripped) and, when the name needs it, `filename*` in UTF-8 (RFC 8187).
 * `fallback` names a file whose name has nothing left ("qr-code", "contact").
 */
export function attachmentDisposition(name: string, extension: string, fallback: string): string {
  const safe = safeFileName(name, fallback);
  return contentDisposition(`${safe}.${extension}`, { fallback: `${asciiFileName(safe, fallback)}.${extension}` });
}

/** Whether an If-None-Match header names `etag` (a list, `*`, or the weak form of it). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

export interface Download {
  contentType: string;
  /** the Content-Disposition (attachmentDisposition, or a fixed `attachment; filename="…"`) */
  disposition: string;
  /** the bytes, or a stream of them; null: the client's ETag matched (304, nothing sent) */
  body: Buffer | string | Readable | null;
  /** `no-store` unless the file may be cached */
  cacheControl?: string;
  etag?: string;
  /** the length, when a streamed body's is known ahead */
  length?: number;
}

/** Sends a download: 200 with the file as an attachment, or 304 when `body` is null (the client's ETag matched). */
export function sendDownload(reply: FastifyReply, download: Download): FastifyReply {
  if (download.etag) reply.header('etag', download.etag);
  reply.header('cache-control', download.cacheControl ?? 'no-store');
  if (download.body === null) return reply.status(304).send();
  if (download.length !== undefined) reply.header('content-length', String(download.length));
  return reply.status(200).header('content-type', download.contentType).header('content-disposition', download.disposition).send(download.body);
}
