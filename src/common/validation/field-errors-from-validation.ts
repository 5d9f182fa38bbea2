import type { ValidationError } from 'class-validator';
import type { FieldError } from './field-error';

/** The message for a field that the schema does not declare. */
export function notAllowedField(path: string): FieldError {
  return { field: path, message: `${path} is not an allowed field` };
}

/**
 * Flattens class-validator's error tree into one FieldError per failed rule, with full paths
 * (`qrcodes[2].name`, `content.address.city`) and the path as the subject of each message.
 */
export function fieldErrorsFromValidation(errors: ValidationError[], parentPath = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = /^\d+$/.test(error.property) ? `${parentPath}[${error.property}]` : parentPath ? `${parentPath}.${error.property}` : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) =>
      rule === 'whitelistValidation' ? notAllowedField(path) : { field: path, message: `${path} ${withoutSubject(message, error.property)}` },
    );
    return [...own, ...fieldErrorsFromValidation(error.children ?? [], path)];
  });
}

/** Messages may start with the bare property name (class-validator's defaults) or have no subject (our rules). */
function withoutSubject(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
