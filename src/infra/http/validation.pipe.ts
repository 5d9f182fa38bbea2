import { ValidationPipe } from '@nestjs/common';
import { fieldErrorsFromValidation } from '../../common/validation/field-errors-from-validation';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';

/** The app's validation: DTO classes, unknown properties rejected, every error named by its field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new ValidationFailedException(fieldErrorsFromValidation(errors)),
  });
}
