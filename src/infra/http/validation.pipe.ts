import { type ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { fieldErrorsFromValidation } from '../../common/validation/field-errors-from-validation';
import { unstorableTextErrors } from '../../common/validation/storable-text';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';

const PER_ITEM = Symbol('validated per item');

/**
 * Marks an array property whose items the service checks one by one (bulk create), so that a bad
 * item fails alone: the request-wide checks leave its items to the service.
 */
export function ValidatedPerItem(): PropertyDecorator {
  return (target, property) => {
    const fields = (Reflect.getMetadata(PER_ITEM, target.constructor) as string[] | undefined) ?? [];
    Reflect.defineMetadata(PER_ITEM, [...fields, String(property)], target.constructor);
  };
}

/**
 * The app's validation of bodies and queries: text PostgreSQL cannot store is refused first, for
 * every field (unstorableTextErrors), then the DTO classes validate, unknown properties rejected,
 * every error named by its field.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ValidationFailedException(fieldErrorsFromValidation(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' || metadata.type === 'query') {
      const perItem = metadata.metatype ? ((Reflect.getMetadata(PER_ITEM, metadata.metatype) as string[] | undefined) ?? []) : [];
      const errors = unstorableTextErrors(value, '', (path) => perItem.some((field) => path.startsWith(`${field}[`)));
      if (errors.length > 0) throw new ValidationFailedException(errors);
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }
}
