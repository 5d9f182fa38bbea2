import { ValidationError } from 'class-validator';
import { FieldError } from '../../common/validation/field-error';

/** The message for a field that no content DTO declares. */
export function notAllowedField(path: string): FieldError {
  return { field: path, message: `${path} is not an allowed field` };
}

/**
 * Flattens class-validator's error tree into one FieldError per failed rule, with dotted paths
 * (`content.address.city`) and the path as the subject of the message.
 */
export function fieldErrorsFromValidation(errors: ValidationError[], parentPath: string): FieldError[] {
  return errors.flatMap((error) => {
    const path = /^\d+$/.test(error.property) ? `${parentPath}[${error.property}]` : `${parentPath}.${error.property}`;
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) =>
      rule === 'whitelistValidation' ? notAllowedField(path) : { field: path, message: `${path} ${withoutSubject(message, error.property)}` },
    );
    return [...own, ...fieldErrorsFromValidation(error.children ?? [], path)];
  });
}

/** Our rules' messages have no subject; class-validator's built-in ones start with the bare property name. */
function withoutSubject(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}
