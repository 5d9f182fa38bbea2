import 'reflect-metadata';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import { type FieldError } from '../../common/validation/field-error';
import { notAllowedField } from '../../common/validation/field-errors-from-validation';

type DtoClass = new () => object;

/**
 * Keeps only the fields a DTO declares (recursing into nested DTOs) and reports every other key.
 * This runs before class-transformer sees the input because class-transformer silently drops
 * `__proto__` and `constructor` keys and walks undeclared values however deeply they nest.
 */
export function selectDeclaredFields(
  raw: Record<string, unknown>,
  dto: DtoClass,
  path: string,
): { selected: Record<string, unknown>; errors: FieldError[] } {
  const declared = declaredFieldsOf(dto);
  const selected: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(raw)) {
    const fieldPath = `${path}.${key}`;
    if (!declared.has(key)) {
      errors.push(notAllowedField(fieldPath));
      continue;
    }
    const value = raw[key];
    const nestedDto = declared.get(key);
    if (nestedDto !== undefined && nestedDto !== null && isPlainObject(value)) {
      const nested = selectDeclaredFields(value, nestedDto, fieldPath);
      selected[key] = nested.selected;
      errors.push(...nested.errors);
    } else {
      selected[key] = value;
    }
  }
  return { selected, errors };
}

/** A JSON object: not null, not an array, not a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const declaredFieldsCache = new Map<DtoClass, Map<string, DtoClass | null>>();

/** Field name to nested DTO class (null for plain values), from the class-validator decorators. */
export function declaredFieldsOf(dto: DtoClass): Map<string, DtoClass | null> {
  const cached = declaredFieldsCache.get(dto);
  if (cached !== undefined) return cached;
  const fields = new Map<string, DtoClass | null>();
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    const isNested = metadata.type === ValidationTypes.NESTED_VALIDATION;
    const designType: unknown = isNested ? (Reflect.getMetadata('design:type', dto.prototype as object, metadata.propertyName) as unknown) : null;
    const nestedDto = typeof designType === 'function' ? (designType as DtoClass) : null;
    if (nestedDto !== null || !fields.has(metadata.propertyName)) fields.set(metadata.propertyName, nestedDto);
  }
  declaredFieldsCache.set(dto, fields);
  return fields;
}
