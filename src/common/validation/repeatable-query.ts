import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';

/**
 * A query parameter that may be repeated (`?tag=a&tag=b`): read as a list whether it came once or
 * more (the query string parser gives a repeated parameter as an array, a single one as a string),
 * at most `maxItems` strings. OpenAPI shows it as an array of strings in the form style, exploded.
 */
export function RepeatableQuery(options: { description: string; maxItems: number; maxLength?: number }): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      isArray: true,
      description: options.description,
      maxItems: options.maxItems,
      ...(options.maxLength !== undefined && { items: { type: 'string', maxLength: options.maxLength } }),
    }),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (value === undefined || Array.isArray(value) ? value : [value])),
    IsArray(),
    ArrayMaxSize(options.maxItems),
    IsString({ each: true }),
  );
}
