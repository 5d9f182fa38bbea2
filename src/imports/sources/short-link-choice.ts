import type { FieldError } from '../../common/validation/field-error';
import type { SourceShortLink } from './imported-link';

/**
 * Which of a record's short links keeps its short code here (docs/migrating.md#keeping-printed-codes-working),
 * pure. With a domain (`&domain=`), a link on that host (or one whose host the file does not say)
 * keeps its code on the domain; without one, codes land on the default host. A link on a host the
 * source service owns (bit.ly, dub.sh, kutt.it) cannot move: the code gets a new short link. Every
 * other short link of the record is noted as not kept.
 */

/** What a short code kept from elsewhere must be: letters, digits, `_` and `-` (3 or more on the default host), not a path the host answers. */
export type ShortCodeRule = (shortCode: string, onDomain: boolean) => string | null;

export interface ShortLinkChoice {
  /** the short code to keep, or null: a new one is drawn */
  shortCode: string | null;
  notes: FieldError[];
}

const address = (link: SourceShortLink) => (link.host ? `${link.host}/${link.shortCode}` : link.shortCode);

export function chooseShortLink(links: readonly SourceShortLink[], domainHost: string | null, rule: ShortCodeRule): ShortLinkChoice {
  const notes: FieldError[] = [];
  const note = (message: string) => notes.push({ field: 'short_code', message: `short_code: ${message}` });
  const movable = links.filter((link) => link.movable);
  const onTarget = domainHost ? movable.filter((link) => link.host === null || link.host === domainHost) : movable;
  const chosen = onTarget[0] ?? movable[0] ?? null;
  for (const link of links) {
    if (link === chosen) continue;
    if (!link.movable && !chosen)
      note(`${address(link)} cannot move (${link.host} belongs to the service you leave): the code gets a new short link`);
    else if (link.movable) note(`${address(link)} is not kept: a code has one short link (import it as a record of its own to keep it)`);
  }
  if (!chosen) return { shortCode: null, notes };
  if (domainHost && chosen.host && chosen.host !== domainHost) note(`${address(chosen)} moves to ${domainHost}/${chosen.shortCode}`);
  const problem = rule(chosen.shortCode, domainHost !== null);
  if (problem) {
    note(`"${chosen.shortCode}" cannot be kept (${problem}): the code gets a new short link`);
    return { shortCode: null, notes };
  }
  return { shortCode: chosen.shortCode, notes };
}
