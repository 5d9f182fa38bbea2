import { Injectable, PipeTransform } from '@nestjs/common';
import type { FieldError } from '../../common/validation/field-error';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { EXPORT_FORMATS, type ExportFormat } from '../../rendering/export/export-file';
import {
  DEFAULT_DPI,
  MAX_BLEED_MM,
  MAX_DPI,
  MAX_EXPORT_SIZE,
  MAX_WIDTH_MM,
  MIN_DPI,
  MIN_EXPORT_SIZE,
  MIN_WIDTH_MM,
} from '../../rendering/export/print-size';
import type { ExportQuery } from './export.query';

const INTEGER = /^\d+$/;
/** Millimetres to a hundredth at most: finer says nothing to a printer. */
const DECIMAL = /^\d+(\.\d{1,2})?$/;

interface Range {
  min: number;
  max: number;
  pattern: RegExp;
  kind: string;
}

const RANGES: Readonly<Record<'size' | 'width_mm' | 'dpi' | 'bleed_mm', Range>> = {
  size: { min: MIN_EXPORT_SIZE, max: MAX_EXPORT_SIZE, pattern: INTEGER, kind: 'an integer' },
  width_mm: { min: MIN_WIDTH_MM, max: MAX_WIDTH_MM, pattern: DECIMAL, kind: 'a number with at most two decimals' },
  dpi: { min: MIN_DPI, max: MAX_DPI, pattern: INTEGER, kind: 'an integer' },
  bleed_mm: { min: 0, max: MAX_BLEED_MM, pattern: DECIMAL, kind: 'a number with at most two decimals' },
};

/**
 * The export query, parsed by hand like the image query (ImageQueryPipe): `format` png, pdf or svg
 * (default png); `size` in pixels or `width_mm` with `dpi`; `bleed_mm` for PDF. Same error shape
 * as every validation failure; unknown parameters are refused.
 */
@Injectable()
export class ExportQueryPipe implements PipeTransform<Record<string, unknown>, ExportQuery> {
  transform(raw: Record<string, unknown>): ExportQuery {
    const errors: FieldError[] = [];
    const numbers: Partial<Record<keyof typeof RANGES, number>> = {};
    let format: ExportFormat = 'png';
    for (const [name, value] of Object.entries(raw ?? {})) {
      if (name === 'format') {
        if ((EXPORT_FORMATS as readonly unknown[]).includes(value)) format = value as ExportFormat;
        else errors.push({ field: 'format', message: `format must be one of: ${EXPORT_FORMATS.join(', ')}` });
      } else if (Object.hasOwn(RANGES, name)) {
        const field = name as keyof typeof RANGES;
        const range = RANGES[field];
        const parsed = typeof value === 'string' && range.pattern.test(value) ? Number(value) : NaN;
        if (Number.isNaN(parsed)) errors.push({ field, message: `${field} must be ${range.kind}` });
        else if (parsed < range.min) errors.push({ field, message: `${field} must not be less than ${range.min}` });
        else if (parsed > range.max) errors.push({ field, message: `${field} must not be greater than ${range.max}` });
        else numbers[field] = parsed;
      } else {
        errors.push({ field: name, message: `${name} is not an allowed field` });
      }
    }
    if (numbers.size !== undefined && numbers.width_mm !== undefined) {
      errors.push({ field: 'width_mm', message: 'width_mm and size are exclusive: give the printed width (with dpi) or the pixel size' });
    }
    // 0 is no bleed, whatever the format (Swagger UI sends the default along).
    if (numbers.bleed_mm && format !== 'pdf') {
      errors.push({ field: 'bleed_mm', message: 'bleed_mm applies to format pdf only' });
    }
    if (errors.length) throw new ValidationFailedException(errors);
    return { format, size: numbers.size, widthMm: numbers.width_mm, dpi: numbers.dpi ?? DEFAULT_DPI, bleedMm: numbers.bleed_mm };
  }
}
