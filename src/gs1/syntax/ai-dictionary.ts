/**
 * The part of the GS1 syntax dictionary (GS1 General Specifications, section 3; the Barcode Syntax
 * Resource's dictionary) that GS1 Digital Link URIs use here: the primary keys the service can hold
 * items for, their key qualifiers in their fixed order, and the data attributes a request may carry
 * in its query string. Data, not code: each entry is an AI's value format.
 *
 * Formats: `N<n>` n digits, `N..<n>` 1 to n digits, `X..<n>` 1 to n characters of GS1's
 * character set 82, `Y..<n>` of character set 39; `date` is YYMMDD (DD may be 00).
 */
export interface AiFormat {
  /** the AI */
  ai: string;
  /** GS1's data title (the HRI label of the printed code is the AI itself) */
  title: string;
  /** the value's pattern, anchored */
  pattern: RegExp;
  /** the position (1-based) of a GS1 mod-10 check digit in the value, -1 for the last character */
  checkDigitAt?: number;
  /** YYMMDD, validated as a calendar date */
  date?: true;
}

/** GS1 character set 82 (the `X` of the dictionary): what a lot, serial or asset reference may hold. */
const CSET82 = '[!"%&\'()*+,\\-./0-9:;<=>?A-Z_a-z]';
/** GS1 character set 39 (`Y`). */
const CSET39 = '[#\\-/0-9A-Z]';

const n = (digits: number) => new RegExp(`^\\d{${digits}}$`);
const upToN = (digits: number) => new RegExp(`^\\d{1,${digits}}$`);
const x = (max: number) => new RegExp(`^${CSET82}{1,${max}}$`);
const date = (ai: string, title: string): AiFormat => ({ ai, title, pattern: n(6), date: true });

/** A primary key and the qualifiers it may have, in the only order a URI may give them. */
export interface PrimaryKey extends AiFormat {
  /** the key qualifiers, in their fixed order (each at most once) */
  qualifiers: readonly string[];
  /** convenience alpha of Digital Link 1.0/1.1 (`gtin`), removed in URI syntax 1.3, still understood */
  alpha: string;
}

export const PRIMARY_KEYS: readonly PrimaryKey[] = [
  { ai: '01', alpha: 'gtin', title: 'GTIN', pattern: n(14), checkDigitAt: -1, qualifiers: ['22', '10', '21'] },
  { ai: '00', alpha: 'sscc', title: 'SSCC', pattern: n(18), checkDigitAt: -1, qualifiers: [] },
  { ai: '414', alpha: 'gln', title: 'LOC NO.', pattern: n(13), checkDigitAt: -1, qualifiers: ['254', '7040'] },
  { ai: '417', alpha: 'party', title: 'PARTY', pattern: n(13), checkDigitAt: -1, qualifiers: [] },
  { ai: '8003', alpha: 'grai', title: 'GRAI', pattern: new RegExp(`^0\\d{13}${CSET82}{0,16}$`), checkDigitAt: 14, qualifiers: [] },
  { ai: '8004', alpha: 'giai', title: 'GIAI', pattern: new RegExp(`^\\d${CSET82}{0,29}$`), qualifiers: [] },
  { ai: '8006', alpha: 'itip', title: 'ITIP', pattern: n(18), checkDigitAt: 14, qualifiers: ['22', '10', '21'] },
  { ai: '8010', alpha: 'cpid', title: 'CPID', pattern: new RegExp(`^\\d${CSET39}{0,29}$`), qualifiers: ['8011'] },
  { ai: '8017', alpha: 'gsrnp', title: 'GSRN - PROVIDER', pattern: n(18), checkDigitAt: -1, qualifiers: ['8019'] },
  { ai: '8018', alpha: 'gsrn', title: 'GSRN - RECIPIENT', pattern: n(18), checkDigitAt: -1, qualifiers: ['8019'] },
  { ai: '253', alpha: 'gdti', title: 'GDTI', pattern: new RegExp(`^\\d{13}${CSET82}{0,17}$`), checkDigitAt: 13, qualifiers: [] },
  { ai: '255', alpha: 'gcn', title: 'GCN', pattern: /^\d{13}\d{0,12}$/, checkDigitAt: 13, qualifiers: [] },
  { ai: '401', alpha: 'ginc', title: 'GINC', pattern: new RegExp(`^\\d${CSET82}{0,29}$`), qualifiers: [] },
  { ai: '402', alpha: 'gsin', title: 'GSIN', pattern: n(17), checkDigitAt: -1, qualifiers: [] },
];

/** Key qualifiers (they appear in the path, after their primary key). */
export const QUALIFIERS: readonly (AiFormat & { alpha?: string })[] = [
  { ai: '22', alpha: 'cpv', title: 'CPV', pattern: x(20) },
  { ai: '10', alpha: 'lot', title: 'BATCH/LOT', pattern: x(20) },
  { ai: '21', alpha: 'ser', title: 'SERIAL', pattern: x(20) },
  { ai: '254', alpha: 'glnx', title: 'GLN EXTENSION COMPONENT', pattern: x(20) },
  { ai: '7040', title: 'UIC+EXT', pattern: new RegExp(`^\\d${CSET82}{3}$`) },
  { ai: '8011', title: 'CPID SERIAL', pattern: /^(0|[1-9]\d{0,11})$/ },
  { ai: '8019', alpha: 'srin', title: 'SRIN', pattern: upToN(10) },
];

/** Data attributes: AIs a request may carry as `?<ai>=<value>` (checked when present, passed on to the target). */
export const DATA_ATTRIBUTES: readonly AiFormat[] = [
  date('11', 'PROD DATE'),
  date('12', 'DUE DATE'),
  date('13', 'PACK DATE'),
  date('15', 'BEST BEFORE or BEST BY'),
  date('16', 'SELL BY'),
  date('17', 'USE BY OR EXPIRY'),
  { ai: '20', title: 'VARIANT', pattern: n(2) },
  { ai: '30', title: 'VAR. COUNT', pattern: upToN(8) },
  { ai: '37', title: 'COUNT', pattern: upToN(8) },
  ...Array.from({ length: 10 }, (_, decimals) => ({ ai: `310${decimals}`, title: 'NET WEIGHT (kg)', pattern: n(6) })),
  ...Array.from({ length: 10 }, (_, decimals) => ({ ai: `392${decimals}`, title: 'PRICE', pattern: upToN(15) })),
  { ai: '235', title: 'TPX', pattern: x(28) },
  { ai: '240', title: 'ADDITIONAL ID', pattern: x(30) },
  { ai: '241', title: 'CUST. PART No.', pattern: x(30) },
  { ai: '242', title: 'MTO VARIANT', pattern: upToN(6) },
  { ai: '250', title: 'SECONDARY SERIAL', pattern: x(30) },
  { ai: '251', title: 'REF. TO SOURCE', pattern: x(30) },
  { ai: '400', title: 'ORDER NUMBER', pattern: x(30) },
  { ai: '403', title: 'ROUTE', pattern: x(30) },
  { ai: '410', title: 'SHIP TO LOC', pattern: n(13), checkDigitAt: -1 },
  { ai: '420', title: 'SHIP TO POST', pattern: x(20) },
  { ai: '422', title: 'ORIGIN', pattern: n(3) },
  { ai: '7003', title: 'EXPIRY TIME', pattern: n(10) },
  { ai: '7006', title: 'FIRST FREEZE DATE', pattern: n(6), date: true },
  ...Array.from({ length: 10 }, (_, i) => ({ ai: `9${i}`, title: 'INTERNAL', pattern: x(90) })),
];

const byAi = <T extends AiFormat>(entries: readonly T[]): ReadonlyMap<string, T> => new Map(entries.map((entry) => [entry.ai, entry]));

export const PRIMARY_KEY_BY_AI = byAi(PRIMARY_KEYS);
export const QUALIFIER_BY_AI = byAi(QUALIFIERS);
export const DATA_ATTRIBUTE_BY_AI = byAi(DATA_ATTRIBUTES);
/** Convenience alphas of Digital Link 1.1 (`/gtin/…`, `/lot/…`), mapped to their AIs. */
export const AI_BY_ALPHA: ReadonlyMap<string, string> = new Map(
  [...PRIMARY_KEYS, ...QUALIFIERS].flatMap((entry) => ('alpha' in entry && entry.alpha ? [[entry.alpha, entry.ai] as const] : [])),
);
