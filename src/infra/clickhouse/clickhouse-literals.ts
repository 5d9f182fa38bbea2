/**
 * Values inlined into ClickHouse statements. ClickHouse 18.16 has no query parameters
 * (`{name:Type}` came in 19.x), so a statement carries its values as literals: only UUIDs and
 * whole numbers, each checked here, never free text.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `toUUID('…')`; throws on anything but a UUID. */
export function uuidLiteral(value: string): string {
  if (!UUID.test(value)) throw new Error(`not a UUID: ${JSON.stringify(value).slice(0, 60)}`);
  return `toUUID('${value.toLowerCase()}')`;
}

/** A list of UUID literals for `IN (…)`; throws on an empty list (IN () is not SQL). */
export function uuidList(values: Iterable<string>): string {
  const literals = [...new Set(values)].map(uuidLiteral);
  if (literals.length === 0) throw new Error('an empty UUID list');
  return literals.join(', ');
}

/** A whole number (a count, an epoch second or millisecond); throws on anything else. */
export function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not a whole number: ${value}`);
  return String(value);
}

/**
 * A set of UUIDs for `IN`, as a subquery over one string literal: ClickHouse parses one token
 * rather than an expression per UUID (10,000 `toUUID('…')` literals take it half a second and
 * 100,000 exceed its AST limit). Throws on an empty list or anything but UUIDs.
 */
export function uuidSet(values: Iterable<string>): string {
  const ids = new Set<string>();
  for (const id of values) {
    if (!UUID.test(id)) throw new Error(`not a UUID: ${JSON.stringify(id).slice(0, 60)}`);
    ids.add(id.toLowerCase());
  }
  if (ids.size === 0) throw new Error('an empty UUID list');
  return `(SELECT toUUID(arrayJoin(splitByChar(',', '${[...ids].join(',')}'))))`;
}
