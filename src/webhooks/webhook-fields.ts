import { Inject, Injectable } from '@nestjs/common';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import type { FieldError } from '../common/validation/field-error';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { FoldersService, NOT_YOUR_FOLDER } from '../folders/folders.service';
import { OUTSIDE_KEY_FOLDERS, restrictedFolders } from '../infra/http/request-context';
import { QrCodesService } from '../qrcodes/qr-codes.service';
import { urlError } from './webhook-url';
import type { WebhookRecord } from './webhooks.repository';

/** The fields of an endpoint a create or update checks; `checkFolder`/`checkCodes` false: unchanged, not looked up again. */
export interface WebhookFields {
  url?: string;
  folderId: WebhookRecord['folderId'];
  qrcodeIds: readonly string[];
  checkFolder?: boolean;
  checkCodes?: boolean;
}

/** The rules of an endpoint's fields: the URL rules, one scope at most, and that the scope's folder and codes are the account's. */
@Injectable()
export class WebhookFieldsCheck {
  constructor(
    private readonly folders: FoldersService,
    private readonly qrCodes: QrCodesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(accountId: AccountId, fields: WebhookFields): Promise<void> {
    const errors = this.fieldErrors(accountId, fields);
    if (errors.length > 0) throw new ValidationFailedException(errors);
    if (fields.folderId && fields.checkFolder !== false && !(await this.folders.ownedAmong(accountId, [fields.folderId])).has(fields.folderId)) {
      errors.push(NOT_YOUR_FOLDER);
    }
    if (fields.qrcodeIds.length > 0 && fields.checkCodes !== false) {
      const ids = [...new Set(fields.qrcodeIds)] as QrCodeId[];
      const owned = await this.qrCodes.ownedAmong(accountId, ids);
      const missing = ids.filter((codeId) => !owned.has(codeId));
      if (missing.length > 0)
        errors.push({
          field: 'qrcode_ids',
          message: `qrcode_ids must name codes of yours (not found: ${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''})`,
        });
    }
    if (errors.length > 0) throw new ValidationFailedException(errors);
  }

  /** What the fields themselves get wrong, before anything is looked up. */
  private fieldErrors(accountId: AccountId, fields: WebhookFields): FieldError[] {
    const errors: FieldError[] = [];
    const url = fields.url === undefined ? null : urlError(fields.url, this.config.webhooks);
    if (url) errors.push(url);
    if (fields.folderId && fields.qrcodeIds.length > 0)
      errors.push({
        field: 'qrcode_ids',
        message: 'a webhook is scoped to a folder or to codes, not both: set folder_id to null or qrcode_ids to []',
      });
    // A folder-restricted key's webhooks are scoped to one of its folders (tables.ts shows it no others).
    if (!fields.folderId && restrictedFolders(accountId)) errors.push({ field: 'folder_id', message: OUTSIDE_KEY_FOLDERS });
    return errors;
  }
}
