import LINK_TYPES from './gs1-web-vocabulary-link-types.json';

/**
 * The link types of the GS1 Web Vocabulary (https://ref.gs1.org/voc/?show=linktypes), shipped as
 * data (`gs1-web-vocabulary-link-types.json`, keyed by the term, as GS1 publishes the list). A link's
 * type is written `gs1:<term>`; requests may also name it by its full URI.
 */
export const GS1_VOCABULARY = 'https://gs1.org/voc/';

export type LinkTypeTerm = keyof typeof LINK_TYPES;

export const LINK_TYPE_CURIES: readonly string[] = Object.keys(LINK_TYPES).map((term) => `gs1:${term}`);

/** Link types a link may be given: every term but the two that only the resolver assigns. */
export const ASSIGNABLE_LINK_TYPES: readonly string[] = LINK_TYPE_CURIES.filter(
  (curie) => curie !== 'gs1:defaultLink' && curie !== 'gs1:defaultLinkMulti',
);

const TERMS: ReadonlySet<string> = new Set(Object.keys(LINK_TYPES));

/** The vocabulary's title of a link type (`gs1:pip` → "Product information page"). */
export const linkTypeTitle = (curie: string): string | undefined => (LINK_TYPES as Record<string, { title: string }>)[curie.slice(4)]?.title;

/** Namespaces GS1 has published the vocabulary under; all name the same terms. */
const NAMESPACES = [
  'gs1:',
  'https://gs1.org/voc/',
  'http://gs1.org/voc/',
  'https://ref.gs1.org/voc/',
  'https://www.gs1.org/voc/',
  'http://www.gs1.org/voc/',
];

/** The `gs1:<term>` of a link type named as a CURIE or a URI, or null when it is no GS1 link type. */
export function linkTypeCurie(name: string): string | null {
  for (const namespace of NAMESPACES) {
    if (name.startsWith(namespace)) {
      const term = name.slice(namespace.length);
      return TERMS.has(term) ? `gs1:${term}` : null;
    }
  }
  return null;
}

/** The URI of a link type (the relation type of a linkset): `gs1:pip` → `https://gs1.org/voc/pip`. */
export const linkTypeUri = (curie: string): string => `${GS1_VOCABULARY}${curie.slice(4)}`;
