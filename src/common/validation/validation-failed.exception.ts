import { BadRequestException } from '@nestjs/common';
import type { FieldError } from './field-error';

/** A 400 that names every offending field; rendered by the error filter as `errors: [{field, message}]`. */
export class ValidationFailedException extends BadRequestException {
  constructor(
    readonly fieldErrors: FieldError[],
    message = summarize(fieldErrors),
  ) {
    super(message);
  }
}

function summarize(errors: FieldError[]): string {
  const shown = errors.slice(0, 3).map((error) => error.message);
  return `Validation failed: ${shown.join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`;
}
