import { type ImportedLink, isRecord, LinkMapping, recordsOf, shortLinkOf, type SourceRead, text } from './imported-link';

/**
 * Kutt (docs/migrating.md#kutt): the JSON of its API's link list (`GET /api/v2/links`: `{limit,
 * skip, total, data: [link]}`). A link: `id`, `address` (the short code), `link` (the short URL),
 * `domain` (null: the instance's default domain), `target`, `description`, `password` (whether it
 * has one; the password itself never leaves Kutt), `expire_in`, `banned`, `visit_count`,
 * `created_at`, `updated_at`. kutt.it's own domain cannot move; a self-hosted Kutt's can.
 */

export const KUTT_OWNED_HOSTS: readonly string[] = ['kutt.it'];

const READ = new Set([
  'id',
  'address',
  'link',
  'domain',
  'target',
  'description',
  'password',
  'expire_in',
  'banned',
  'visit_count',
  'created_at',
  'updated_at',
]);

function fromJson(record: unknown, row: number, now: Date): ImportedLink {
  const mapping = new LinkMapping();
  if (!isRecord(record)) return mapping.failed(row, 'link', 'each item must be a Kutt link object');
  for (const [field, value] of Object.entries(record)) {
    if (!READ.has(field) && value !== null && value !== undefined && value !== false)
      mapping.note(field, `${JSON.stringify(value).slice(0, 200)} is not imported (no counterpart here)`);
  }
  const address = text(record, 'address');
  const host = text(record, 'domain')?.toLowerCase() ?? null;
  const link =
    shortLinkOf(text(record, 'link'), KUTT_OWNED_HOSTS) ??
    (address ? { host, shortCode: address, movable: !host || !KUTT_OWNED_HOSTS.includes(host) } : null);
  mapping.visits('visit_count', record.visit_count);
  if (record.password === true) mapping.note('password', 'Kutt does not export passwords: set one with password (PUT) to protect the link again');
  if (record.banned === true) mapping.note('banned', 'the link was banned at Kutt: it is imported paused');
  const expiry = mapping.expiry('expire_in', record.expire_in, now);
  const links = link ? [link] : [];
  return mapping.link(row, links, mapping.date('created_at', record.created_at), {
    name: mapping.name('description', text(record, 'description'), links, text(record, 'target')),
    url: text(record, 'target') ?? '',
    tags: [],
    ...expiry,
    paused: expiry.paused || record.banned === true || undefined,
  });
}

export function readKuttJson(json: unknown, now: Date): SourceRead {
  const records = recordsOf(json, ['data']);
  if (!records) return { ok: false, errors: [{ field: 'body', message: 'a Kutt file is the links list ({"data": [...]}) or an array of links' }] };
  return { ok: true, links: records.map((record, index) => fromJson(record, index + 1, now)) };
}
