/**
 * Writing SVG elements as strings. Every attribute value goes through `escapeAttribute`, so no
 * value can close its quotes or open markup, whatever it holds.
 */

const ATTRIBUTE_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPED_CHARACTERS = /[&<>"']/g;

export function escapeAttribute(value: string): string {
  // Most values (path data, numbers, base64) need nothing: a test is cheaper than a replace.
  return NEEDS_ESCAPE.test(value) ? value.replace(ESCAPED_CHARACTERS, (character) => ATTRIBUTE_ESCAPES[character]) : value;
}

/** A number rounded for writing into an attribute (coordinates need no more than a few decimals). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Attribute values in writing order; undefined values are left out. */
export type Attributes = ReadonlyArray<readonly [name: string, value: string | number | undefined]>;

function attributeText(attributes: Attributes): string {
  let text = '';
  for (const [name, value] of attributes) {
    if (value !== undefined) text += ` ${name}="${escapeAttribute(String(value))}"`;
  }
  return text;
}

export function emptyElement(name: string, attributes: Attributes): string {
  return `<${name}${attributeText(attributes)}/>`;
}

export function element(name: string, attributes: Attributes, children: string): string {
  return `<${name}${attributeText(attributes)}>${children}</${name}>`;
}
