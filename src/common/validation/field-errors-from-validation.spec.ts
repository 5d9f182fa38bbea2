import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { fieldErrorsFromValidation, firstFailedRule } from './field-errors-from-validation';

class Address {
  @IsDefined()
  @IsString()
  @MaxLength(5)
  city: string;

  @IsDefined({ message: 'or address.city is required' })
  street: string;
}

class Sample {
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(2)
  items: unknown[];

  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be an integer' })
  @Min(1)
  @Max(1000)
  page?: number;

  @IsOptional()
  @IsString()
  @MaxLength(3)
  @Matches(/^\S+$/, { message: 'name must not contain spaces' })
  name?: string;

  @IsOptional()
  @IsIn(['a', 'b'], { message: 'kind must be one of: a, b' })
  kind?: string;

  @IsOptional()
  @IsUUID()
  folder_id?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => Address)
  address?: Address;
}

/** The field errors the app reports for `input` (whitelisting as the app's validation pipe does). */
function errorsFor(input: Record<string, unknown>) {
  const errors = validateSync(plainToInstance(Sample, input), { whitelist: true, forbidNonWhitelisted: true });
  return fieldErrorsFromValidation(errors);
}

const valid = { items: [1] };

describe('fieldErrorsFromValidation: one message per field, the first failing rule', () => {
  it.each([
    ['a string where an array belongs', { items: 'x' }, [{ field: 'items', message: 'items must be an array' }]],
    ['a missing required field', {}, [{ field: 'items', message: 'items is required' }]],
    ['null for a required field', { items: null }, [{ field: 'items', message: 'items is required' }]],
    ['an empty array', { items: [] }, [{ field: 'items', message: 'items must contain at least 1 elements' }]],
    ['too many items', { items: [1, 2, 3] }, [{ field: 'items', message: 'items must contain no more than 2 elements' }]],
    ['a word for an integer', { ...valid, page: 'abc' }, [{ field: 'page', message: 'page must be an integer' }]],
    ['an integer out of range', { ...valid, page: '0' }, [{ field: 'page', message: 'page must not be less than 1' }]],
    ['a number for a string', { ...valid, name: 5 }, [{ field: 'name', message: 'name must be a string' }]],
    // Both MaxLength and Matches fail: the one declared first is reported.
    ['a string breaking two rules', { ...valid, name: 'a b c' }, [{ field: 'name', message: 'name must be shorter than or equal to 3 characters' }]],
    ['a value outside the allowed set', { ...valid, kind: 'c' }, [{ field: 'kind', message: 'kind must be one of: a, b' }]],
    ['a malformed UUID', { ...valid, folder_id: 'nope' }, [{ field: 'folder_id', message: 'folder_id must be a UUID' }]],
    ['an unknown field', { ...valid, colour: 'red' }, [{ field: 'colour', message: 'colour is not an allowed field' }]],
    ['a nested field', { ...valid, address: { city: 7, street: 'Main St' } }, [{ field: 'address.city', message: 'address.city must be a string' }]],
    [
      'missing nested fields, one with its own message',
      { ...valid, address: {} },
      [
        { field: 'address.city', message: 'address.city is required' },
        { field: 'address.street', message: 'address.street or address.city is required' },
      ],
    ],
  ])('%s', (_case, input, expected) => {
    expect(errorsFor(input)).toEqual(expected);
  });

  it('reports each failing field once, in field order', () => {
    expect(errorsFor({ items: 'x', page: 'abc', name: 5 })).toEqual([
      { field: 'items', message: 'items must be an array' },
      { field: 'page', message: 'page must be an integer' },
      { field: 'name', message: 'name must be a string' },
    ]);
  });

  it('prefixes array positions and parent paths', () => {
    const errors = validateSync(plainToInstance(Sample, { items: 'x' }));
    expect(fieldErrorsFromValidation(errors, 'qrcodes[2]')).toEqual([{ field: 'qrcodes[2].items', message: 'qrcodes[2].items must be an array' }]);
  });
});

describe('firstFailedRule', () => {
  // Constraints as class-validator lists them: failed rules in reverse declaration order.
  it.each([
    ['unknown field first', { isString: 's', whitelistValidation: 'w' }, 'whitelistValidation'],
    ['missing before kind', { isArray: 'a', isDefined: 'd' }, 'isDefined'],
    ['kind before range', { max: 'x', min: 'n', isInt: 'i' }, 'isInt'],
    ['kind before pattern, whatever the declaration order', { isString: 's', matches: 'm' }, 'isString'],
    ['declaration order among other rules', { matches: 'm', maxLength: 'l' }, 'maxLength'],
    ['a single rule', { isUuid: 'u' }, 'isUuid'],
  ])('%s', (_case, constraints, expected) => {
    expect(firstFailedRule(constraints)?.name).toBe(expected);
  });

  it('is undefined without constraints', () => {
    expect(firstFailedRule({})).toBeUndefined();
  });
});
