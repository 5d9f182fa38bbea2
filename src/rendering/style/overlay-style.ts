/**
 * One style laid over another (a brand kit under a code's own fields, an image link's overrides
 * over its code's style): objects merge field by field, any other value of the top one (a colour,
 * an array of gradient stops, `null`) replaces the one below. Pure; the result is checked like any
 * style (checkStyle) by whoever uses it.
 */
export function overlayStyle(base: unknown, top: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(top)) return top === undefined ? base : top;
  const merged: Record<string, unknown> = { ...base };
  for (const [field, value] of Object.entries(top)) merged[field] = overlayStyle(base[field], value);
  return merged;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
