/** GS1's mod-10 check digit of `digits` (the digits before it): weights 3, 1, 3, … from the right. */
export function gs1CheckDigit(digits: string): number {
  let sum = 0;
  for (let i = digits.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += (digits.charCodeAt(i) - 48) * weight;
  return (10 - (sum % 10)) % 10;
}

/** Whether the digit at `position` (1-based; -1: the last) is the check digit of the digits before it. */
export function hasValidCheckDigit(value: string, position: number): boolean {
  const at = position === -1 ? value.length : position;
  if (at > value.length) return false;
  const body = value.slice(0, at - 1);
  if (!/^\d*$/.test(body)) return false;
  return value.charCodeAt(at - 1) - 48 === gs1CheckDigit(body);
}
