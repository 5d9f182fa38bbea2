/**
 * class-validator rules shared by the content DTOs. Messages are phrases without a subject
 * ("must be a string"): the field path is put in front when errors are flattened, so one rule
 * reads right at any depth (`content.address.city must be a string`).
 */
import { Transform } from 'class-transformer';
import { IsDefined, IsString, MaxLength, ValidateBy, ValidateIf, type ValidationArguments } from 'class-validator';
import { IsOptionalNotNull } from '../../common/validation/optional-not-null';
import { parseIsoDateTime } from '../../common/time/iso-date-time';
import { MAX_PHONE_NUMBER_LENGTH, MIN_PHONE_NUMBER_LENGTH, isWrittenPhoneNumber } from './phone-number';
import { redirectTargetProblem } from '../../common/web/redirect-target';

/**
 * Applies property decorators in the order listed. class-validator checks rules in the order they
 * were applied, and with stopAtFirstError only the first failing one is reported, so the order
 * decides which message a caller sees; stacked `@` decorators would apply bottom-up.
 */
export function inOrder(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, propertyKey) => decorators.forEach((decorate) => decorate(target, propertyKey));
}

interface TextOptions {
  maxLength: number;
  /** Single-line values (names, addresses, numbers) are trimmed; free text and Wi-Fi values keep their whitespace. */
  trim?: boolean;
}

/** A required string: present, a string, not blank, within maxLength. */
export function RequiredText({ maxLength, trim = true }: TextOptions): PropertyDecorator {
  return inOrder(
    Transform(({ value }: { value: unknown }) => (trim && typeof value === 'string' ? value.trim() : value)),
    IsDefined({ message: 'is required' }),
    TextRules(maxLength),
  );
}

/** An optional string. A blank one counts as absent, as forms send empty inputs as ""; null is refused (it means nothing here). */
export function OptionalText(options: TextOptions): PropertyDecorator {
  return inOrder(BlankAsAbsent(options), IsOptionalNotNull(), TextRules(options.maxLength));
}

/** Required unless `otherField` is present; vCard needs one of first and last name. */
export function RequiredTextUnlessPresent(otherField: string, options: TextOptions): PropertyDecorator {
  return inOrder(
    BlankAsAbsent(options),
    ValidateIf((object: Record<string, unknown>, value: unknown) => value !== undefined || object[otherField] === undefined),
    IsPresent(`or content.${otherField} is required`),
    TextRules(options.maxLength),
  );
}

/** Turns a blank string into undefined (trimming kept values when asked), so optional rules skip it. */
export function BlankAsAbsent({ trim = true }: { trim?: boolean }): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    if (value.trim() === '') return undefined;
    return trim ? value.trim() : value;
  });
}

/** The checks every present string value passes. */
export function TextRules(maxLength: number): PropertyDecorator {
  return inOrder(
    IsString({ message: 'must be a string' }),
    IsNotBlank(),
    MaxLength(maxLength, { message: `must be at most ${maxLength} characters` }),
  );
}

/**
 * Like IsDefined, but null gets its own message ("must not be null" says more than "is required"
 * to a client that sent the field). A rule of its own because class-validator checks IsDefined
 * before every other rule, whatever their order.
 */
export function IsPresent(messageWhenMissing: string): PropertyDecorator {
  return ValidateBy({
    name: 'isPresent',
    validator: {
      validate: (value: unknown) => value !== undefined && value !== null,
      defaultMessage: (args?: ValidationArguments) => (args?.value === null ? 'must not be null' : messageWhenMissing),
    },
  });
}

function IsNotBlank(): PropertyDecorator {
  return ValidateBy({
    name: 'isNotBlank',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.trim() !== '',
      defaultMessage: () => 'must not be empty',
    },
  });
}

export function IsSingleLine(): PropertyDecorator {
  return ValidateBy({
    name: 'isSingleLine',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !/[\r\n]/.test(value),
      defaultMessage: () => 'must be a single line',
    },
  });
}

export function MaxUtf8Bytes(maxBytes: number): PropertyDecorator {
  return ValidateBy({
    name: 'maxUtf8Bytes',
    constraints: [maxBytes],
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || Buffer.byteLength(value, 'utf8') <= maxBytes,
      defaultMessage: () => `must be at most ${maxBytes} bytes in UTF-8`,
    },
  });
}

export function IsWrittenPhoneNumber(): PropertyDecorator {
  return ValidateBy({
    name: 'isWrittenPhoneNumber',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && isWrittenPhoneNumber(value),
      defaultMessage: () =>
        `must be a phone number of ${MIN_PHONE_NUMBER_LENGTH} to ${MAX_PHONE_NUMBER_LENGTH} characters: ` +
        'at least three digits after an optional +, with spaces, dashes, dots or parentheses if wanted',
    },
  });
}

/** An http(s) URL that passes the redirect-target rules (own-host check aside: that needs the configured hosts). */
export function IsWebUrl(): PropertyDecorator {
  return ValidateBy({
    name: 'isWebUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && redirectTargetProblem(value) === null,
      defaultMessage: (args?: ValidationArguments) => redirectTargetProblem(String(args?.value)) ?? 'must be an absolute http or https URL',
    },
  });
}

export function IsIsoDateTime(): PropertyDecorator {
  return ValidateBy({
    name: 'isIsoDateTime',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseIsoDateTime(value) !== null,
      defaultMessage: () => 'must be an ISO 8601 date-time such as 2025-06-01T18:00:00Z',
    },
  });
}

/** Strictly later than the date-time in `otherField`; when either is not a date-time, that field's own rule reports it. */
export function IsAfterDateTimeIn(otherField: string): PropertyDecorator {
  return ValidateBy({
    name: 'isAfterDateTimeIn',
    constraints: [otherField],
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const other = (args?.object as Record<string, unknown> | undefined)?.[otherField];
        const later = typeof value === 'string' ? parseIsoDateTime(value) : null;
        const earlier = typeof other === 'string' ? parseIsoDateTime(other) : null;
        return later === null || earlier === null || later > earlier;
      },
      defaultMessage: () => `must be after content.${otherField}`,
    },
  });
}
