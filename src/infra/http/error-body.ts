import { STATUS_CODES } from 'node:http';
import type { FieldError } from '../../common/validation/field-error';

/** The one error body of every non-2xx JSON response (design §9). */
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
