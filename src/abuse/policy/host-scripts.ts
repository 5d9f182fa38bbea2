import { domainToUnicode } from 'node:url';

/**
 * Mixed-script labels (IDN homographs), judged on the Unicode form of each label by the "highly
 * restrictive" profile of Unicode TS #39 (section 5.2): a label is ordinary when all its letters
 * share one script (`bücher`, `παράδειγμα`, `пример`), or when it is Latin mixed only with the
 * scripts one East Asian language writes together (Japanese: Han, Hiragana, Katakana; Chinese: Han,
 * Bopomofo; Korean: Han, Hangul). `pаypal` with a Cyrillic `а` is not. Characters of several
 * scripts count for each (Script_Extensions); digits, hyphens and combining marks for none. Pure.
 */

const SCRIPTS = [
  'Latin', 'Greek', 'Cyrillic', 'Armenian', 'Hebrew', 'Arabic', 'Syriac', 'Thaana', 'Nko', 'Devanagari', 'Bengali',
  'Gurmukhi', 'Gujarati', 'Oriya', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Thai', 'Lao', 'Tibetan',
  'Myanmar', 'Georgian', 'Hangul', 'Ethiopic', 'Cherokee', 'Canadian_Aboriginal', 'Ogham', 'Runic', 'Khmer', 'Mongolian',
  'Hiragana', 'Katakana', 'Bopomofo', 'Han', 'Yi', 'Tagalog', 'Coptic', 'Tifinagh', 'Vai', 'Bamum', 'Javanese',
  'Balinese', 'Sundanese', 'Lisu', 'Adlam', 'Osage', 'Glagolitic', 'Gothic', 'Deseret',
] as const; // prettier-ignore

const SCRIPT_PATTERNS = SCRIPTS.map((script) => [script, new RegExp(`^\\p{Script_Extensions=${script}}$`, 'u')] as const);
const NEUTRAL = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** TS #39's augmented script sets: Han belongs to each CJK writing system, the kana to Japanese, Hangul to Korean, Bopomofo to Chinese. */
const AUGMENTED: Partial<Record<string, readonly string[]>> = {
  Han: ['Jpan', 'Kore', 'Hanb'],
  Hiragana: ['Jpan'],
  Katakana: ['Jpan'],
  Hangul: ['Kore'],
  Bopomofo: ['Hanb'],
};

/** The mixes the highly restrictive profile allows beyond a single script. */
const ALLOWED_MIXES: readonly ReadonlySet<string>[] = [new Set(['Latin', 'Jpan']), new Set(['Latin', 'Hanb']), new Set(['Latin', 'Kore'])];

/** The scripts of one character, augmented; null for a neutral one (digit, hyphen, combining mark). */
function scriptsOf(char: string): Set<string> | null {
  if (NEUTRAL.test(char)) return null;
  const scripts = new Set<string>();
  for (const [script, pattern] of SCRIPT_PATTERNS) {
    if (!pattern.test(char)) continue;
    scripts.add(script);
    for (const extra of AUGMENTED[script] ?? []) scripts.add(extra);
  }
  // A script not listed above still differs from every listed one.
  if (scripts.size === 0) scripts.add(`U+${char.codePointAt(0)!.toString(16)}`);
  return scripts;
}

/** Whether one label (Unicode form) mixes scripts in a way the highly restrictive profile refuses. */
export function labelMixesScripts(label: string): boolean {
  const sets = [...label].map(scriptsOf).filter((set): set is Set<string> => set !== null);
  if (sets.length < 2) return false;
  const shared = sets.reduce((common, set) => new Set([...common].filter((script) => set.has(script))));
  if (shared.size > 0) return false;
  return !ALLOWED_MIXES.some((mix) => sets.every((set) => [...set].some((script) => mix.has(script))));
}

/**
 * The first label of `asciiHost` (a parsed URL's host, punycode) that mixes scripts, in its Unicode
 * form, or null. A punycode label that does not decode counts as mixed: it cannot be shown as it is.
 */
export function mixedScriptLabel(asciiHost: string): string | null {
  for (const label of asciiHost.split('.')) {
    if (!label.startsWith('xn--')) continue;
    const unicode = domainToUnicode(label);
    if (unicode === '' || unicode.startsWith('xn--') || labelMixesScripts(unicode)) return unicode || label;
  }
  return null;
}

/** The Unicode form of a host for people (`bücher.example`), or the host itself when it has none. */
export function unicodeHost(asciiHost: string): string {
  return domainToUnicode(asciiHost) || asciiHost;
}
