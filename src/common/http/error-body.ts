import { STATUS_CODES } from 'node:http';
import type { FieldError } from '../validation/field-error';

/** The one error body of every non-2xx JSON response (docs/errors.md). */
export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  errors?: FieldError[];
  request_id: string;
}

export function errorBody(statusCode: number, message: string, requestId: string, errors?: FieldError[]): ErrorBody {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(errors ? { errors } : {}),
    request_id: requestId,
  };
}
