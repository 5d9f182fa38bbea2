import type { Gs1Key } from '../syntax/digital-link-key';

/** One link of an item (a GS1 link type, its target and what it is for). */
export interface Gs1Link {
  /** `gs1:<term>` */
  linkType: string;
  /** target, maybe a template with the request's values (`{10}`) */
  href: string;
  title: string;
  hreflang: readonly string[];
  type: string | null;
  context: readonly string[];
  isDefault: boolean;
}

/** An item at one level of a key's hierarchy (a GTIN, a lot of it, a serial of that lot). */
export interface ItemLevel {
  key: Gs1Key;
  name: string | null;
  links: readonly Gs1Link[];
}
