import type { ValidationError } from 'class-validator';
import type { FieldError } from './field-error';

/** The message for a field that the schema does not declare. */
export function notAllowedField(path: string): FieldError {
  return { field: path, message: `${path} is not an allowed field` };
}

/**
 * Flattens class-validator's error tree into one FieldError per field, with full paths
 * (`qrcodes[2].name`, `content.address.city`) and the path as the subject of each message.
 * A field that breaks several rules gets the message of the first one (firstFailedRule): `"x"`
 * for an array is "must be an array", not also "must contain at least 1 elements".
 */
export function fieldErrorsFromValidation(errors: ValidationError[], parentPath = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = /^\d+$/.test(error.property) ? `${parentPath}[${error.property}]` : parentPath ? `${parentPath}.${error.property}` : error.property;
    const rule = firstFailedRule(error.constraints ?? {});
    const own = rule ? [fieldError(path, error.property, rule.name, rule.message)] : [];
    return [...own, ...fieldErrorsFromValidation(error.children ?? [], path)];
  });
}

/** Rules that say what a value must be at all; a range or pattern message about a value of the wrong kind only confuses. */
const KIND_RULES = new Set([
  'isArray',
  'isObject',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isIn',
  'isEnum',
  'isUuid',
  'isIso8601',
  'isDateString',
  'isDate',
]);

/**
 * The rule whose message a person should see first: an unknown field, then a missing one, then
 * the value's kind, then anything else in the order the rules are declared. class-validator lists
 * a property's failed rules in reverse declaration order (decorators apply bottom-up).
 */
export function firstFailedRule(constraints: Record<string, string>): { name: string; message: string } | undefined {
  const inDeclarationOrder = Object.entries(constraints).reverse();
  const rank = ([name]: [string, string]) => (name === 'whitelistValidation' ? 0 : name === 'isDefined' ? 1 : KIND_RULES.has(name) ? 2 : 3);
  const [first] = inDeclarationOrder.sort((a, b) => rank(a) - rank(b));
  return first && { name: first[0], message: first[1] };
}

function fieldError(path: string, property: string, rule: string, message: string): FieldError {
  if (rule === 'whitelistValidation') return notAllowedField(path);
  const phrase = withoutSubject(message, property);
  // class-validator's default wording for a missing value; rules with their own message keep it.
  return { field: path, message: `${path} ${phrase === 'should not be null or undefined' ? 'is required' : phrase}` };
}

/** Messages may start with the bare property name (class-validator's defaults) or have no subject (our rules). */
function withoutSubject(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
