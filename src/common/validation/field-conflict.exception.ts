import { ConflictException } from '@nestjs/common';
import type { FieldError } from './field-error';

/** A 409 naming the field whose value is taken (a hostname, a short code); rendered with `errors` like a 400. */
export class FieldConflictException extends ConflictException {
  constructor(readonly fieldErrors: FieldError[]) {
    super(fieldErrors.map((error) => error.message).join('; '));
  }
}
