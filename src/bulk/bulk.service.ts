import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { AccountId } from '../common/ids/account-id';
import type { FieldError } from '../common/validation/field-error';
import { fieldErrorsFromValidation } from '../common/validation/field-errors-from-validation';
import { unstorableTextErrors } from '../common/validation/storable-text';
import { CreateQrCodeDto } from '../qrcodes/dto/create-qr-code.dto';
import { toBulkItem } from '../qrcodes/qr-code.representation';
import type { NewQrCode } from '../qrcodes/qr-code.record';
import { QrCodesService } from '../qrcodes/qr-codes.service';

const ITEM_VALIDATION = { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } } as const;

/**
 * Bulk create: every item is checked on its own with the single-create rules; the
 * valid ones are written in one transaction, the invalid ones reported by index. Partial success
 * is still 201.
 */
@Injectable()
export class BulkService {
  constructor(private readonly qrCodes: QrCodesService) {}

  async create(accountId: AccountId, items: unknown[]) {
    const shaped = items.map(checkItemShape);
    const dtos = shaped.flatMap((item) => (item.ok ? [item.dto] : []));
    const ruleChecks = await this.qrCodes.checkNew(accountId, dtos);

    const errors: Array<{ index: number; errors: FieldError[] }> = [];
    const valid: NewQrCode[] = [];
    let next = 0;
    shaped.forEach((item, index) => {
      const check = item.ok ? ruleChecks[next++] : item;
      if (check.ok) valid.push(check.code);
      else errors.push({ index, errors: check.errors });
    });

    const created = valid.length ? await this.qrCodes.insert(accountId, valid, true) : [];
    const dynamicCreated = created.filter((code) => code.isDynamic).length;
    return {
      created: created.map((code) => toBulkItem(code, this.qrCodes.origins)),
      errors,
      summary: {
        total_submitted: items.length,
        total_created: created.length,
        total_failed: errors.length,
        dynamic_created: dynamicCreated,
        static_created: created.length - dynamicCreated,
      },
    };
  }
}

type ShapedItem = { ok: true; dto: CreateQrCodeDto } | { ok: false; errors: FieldError[] };

export function checkItemShape(raw: unknown): ShapedItem {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, errors: [{ field: 'item', message: 'each item must be an object with type and content' }] };
  }
  const unstorable = unstorableTextErrors(raw);
  if (unstorable.length > 0) return { ok: false, errors: unstorable };
  const dto = plainToInstance(CreateQrCodeDto, raw);
  const errors = validateSync(dto, ITEM_VALIDATION);
  return errors.length ? { ok: false, errors: fieldErrorsFromValidation(errors) } : { ok: true, dto };
}
