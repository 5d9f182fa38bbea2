import { Injectable, PipeTransform } from '@nestjs/common';
import type { FieldError } from '../../common/validation/field-error';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { MAX_SIZE, MIN_SIZE } from '../../rendering/image-size-range';
import { IMAGE_FORMATS, type ImageQuery } from './image.query';

const INTEGER = /^\d+$/;

const DEFAULT_SIZE = 300;

/**
 * The image query (`size` 100..2000, default 300; `format` svg only), parsed by hand: the image
 * endpoint is a hot path and the global ValidationPipe's per-request reflection cost a large share
 * of its throughput. Same error shape as every validation failure; unknown parameters are refused.
 */
@Injectable()
export class ImageQueryPipe implements PipeTransform<Record<string, unknown>, ImageQuery> {
  transform(raw: Record<string, unknown>): ImageQuery {
    const errors: FieldError[] = [];
    const query: ImageQuery = { size: DEFAULT_SIZE };
    for (const [name, value] of Object.entries(raw ?? {})) {
      if (name === 'size') {
        const size = typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
        if (!Number.isInteger(size)) errors.push({ field: 'size', message: 'size must be an integer' });
        else if (size < MIN_SIZE) errors.push({ field: 'size', message: `size must not be less than ${MIN_SIZE}` });
        else if (size > MAX_SIZE) errors.push({ field: 'size', message: `size must not be greater than ${MAX_SIZE}` });
        else query.size = size;
      } else if (name === 'format') {
        if (!(IMAGE_FORMATS as readonly unknown[]).includes(value))
          errors.push({ field: 'format', message: 'format must be svg (the only format served)' });
      } else {
        errors.push({ field: name, message: `${name} is not an allowed field` });
      }
    }
    if (errors.length) throw new ValidationFailedException(errors);
    return query;
  }
}
