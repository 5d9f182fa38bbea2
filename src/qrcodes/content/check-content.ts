import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { type FieldError } from '../../common/validation/field-error';
import { fieldErrorsFromValidation } from '../../common/validation/field-errors-from-validation';
import { CONTENT_TYPES } from './content-types';
import { isPlainObject, selectDeclaredFields } from './declared-fields';
import { QR_TYPES, type QrType, isQrType } from './qr-types';
import { normaliseRedirectTarget, type OwnHosts } from '../../common/web/redirect-target';

export interface ContentCheckOptions {
  /** hosts that reach the service itself: a url target there is refused (redirect loop) */
  ownHosts?: OwnHosts;
}

export type ContentCheck = { ok: true; content: Record<string, unknown>; contentString: string } | { ok: false; errors: FieldError[] };

/** Validates raw request content for a type and encodes it. Never throws for any input. */
export function checkContent(type: QrType, raw: unknown, options: ContentCheckOptions = {}): ContentCheck {
  try {
    return checkContentOrThrow(type, raw, options);
  } catch {
    // Only pathological input gets here (e.g. a value nested deep enough to exhaust the stack).
    return { ok: false, errors: [{ field: 'content', message: 'content could not be read' }] };
  }
}

function checkContentOrThrow(type: QrType, raw: unknown, options: ContentCheckOptions): ContentCheck {
  if (!isQrType(type)) return { ok: false, errors: [{ field: 'type', message: `type must be one of ${QR_TYPES.join(', ')}` }] };
  if (!isPlainObject(raw)) return { ok: false, errors: [{ field: 'content', message: 'content must be an object' }] };

  const { dto, encode } = CONTENT_TYPES[type];
  const { selected, errors: undeclaredFieldErrors } = selectDeclaredFields(raw, dto, 'content');
  const instance = plainToInstance(dto, selected);
  const validationErrors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
  });
  const errors = [...fieldErrorsFromValidation(validationErrors, 'content'), ...undeclaredFieldErrors];
  if (errors.length > 0) return { ok: false, errors };

  const content = storedForm(instance);
  if (type === 'url') {
    // Stored (and later redirected to) in its normal form.
    const target = normaliseRedirectTarget(content.url, options.ownHosts);
    if (!target.ok) return { ok: false, errors: [{ field: 'content.url', message: `content.url ${target.problem}` }] };
    content.url = target.href;
  }
  return { ok: true, content, contentString: encode(content) };
}

/** The validated DTO as a plain JSON object: absent (undefined or null) fields and empty nested objects dropped. */
function storedForm(instance: object): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(instance)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'object') {
      const nested = storedForm(value as object);
      if (Object.keys(nested).length > 0) stored[key] = nested;
    } else {
      stored[key] = value;
    }
  }
  return stored;
}
