import { BadRequestException } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import type { FieldError } from './field-error';

/** A 400 that names every offending field; rendered by the error filter as `errors: [{field, message}]`. */
export class ValidationFailedException extends BadRequestException {
  constructor(readonly fieldErrors: FieldError[], message = summarize(fieldErrors)) {
    super(message);
  }
}

function summarize(errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((error) => error.message);
  return `Validation failed: ${shown.join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`;
}

/** Flattens class-validator's error tree into dotted field paths (`qrcodes[2].name`, `address.city`). */
export function flattenValidationErrors(errors: ValidationError[], parentPath = ''): FieldError[] {
  return errors.flatMap((error) => {
    const path = joinPath(parentPath, error.property);
    const own = Object.values(error.constraints ?? {}).map((message) => ({ field: path, message: withPath(path, error.property, message) }));
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

function joinPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** class-validator messages start with the bare property name; show the full path instead. */
function withPath(path: string, property: string, message: string): string {
  if (message.startsWith(`property ${property} `)) return `${path} ${message.slice(`property ${property} `.length)}`;
  if (message.startsWith(`${property} `)) return `${path} ${message.slice(property.length + 1)}`;
  return `${path}: ${message}`;
}
