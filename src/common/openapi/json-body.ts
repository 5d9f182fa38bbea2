import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';

/** A request body example as Swagger UI offers it: the first one pre-fills "Try it out". */
export interface BodyExample<T> {
  summary: string;
  value: T;
}

/**
 * The JSON request body of an operation: the DTO's schema and named examples, each of which is
 * valid as it stands (a test executes every one against a fresh account).
 */
export function ApiJsonBody<T>(type: Type<T>, examples: Record<string, BodyExample<T>>): MethodDecorator {
  return applyDecorators(ApiExtraModels(type), ApiBody({ required: true, schema: { $ref: getSchemaPath(type) }, examples }));
}
