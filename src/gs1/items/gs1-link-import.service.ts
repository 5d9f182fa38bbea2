import { HttpException, Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { type ValidationError, validateSync } from 'class-validator';
import type { AccountId } from '../../common/ids/account-id';
import type { DomainId } from '../../common/ids/resource-ids';
import type { FieldError } from '../../common/validation/field-error';
import { ValidationFailedException } from '../../common/validation/validation-failed.exception';
import { readCsvRecords } from '../../imports/csv-file';
import { Gs1ItemBodyDto } from './dto/gs1-item.dto';
import { Gs1ItemsService } from './gs1-items.service';
import { headerProblems, type ImportedItem, itemsOfRows } from './gs1-link-csv';

export interface Gs1ImportedItemResult {
  path: string;
  domain_id: string | null;
  rows: number[];
  action: 'create' | 'update' | 'failed';
  id: string | null;
  errors: FieldError[];
}

/**
 * A CSV of GS1 links, one row per link (docs/gs1-digital-link.md#csv-import), read with the code
 * import's reader (src/imports/csv-file.ts): rows are grouped into items by host and path; each
 * item is checked like a create body and then created, or, when the account has it already, its
 * name and links replaced, through Gs1ItemsService (audit, webhooks, caches). A failing item never
 * stops the others. A dry run checks everything and writes nothing.
 */
@Injectable()
export class Gs1LinkImport {
  constructor(private readonly items: Gs1ItemsService) {}

  async run(accountId: AccountId, csv: string, dryRun: boolean) {
    const read = readCsvRecords(csv);
    if (!read.ok) throw new ValidationFailedException(read.errors);
    const problems = headerProblems(read.file.header);
    if (problems.length > 0) throw new ValidationFailedException(problems);
    const results: Gs1ImportedItemResult[] = [];
    for (const item of itemsOfRows(read.file)) results.push(await this.importItem(accountId, item, dryRun));
    const count = (action: Gs1ImportedItemResult['action']) => results.filter((result) => result.action === action).length;
    return {
      dry_run: dryRun,
      rows: read.file.rows.length,
      summary: { created: count('create'), updated: count('update'), failed: count('failed') },
      items: results,
    };
  }

  private async importItem(accountId: AccountId, item: ImportedItem, dryRun: boolean): Promise<Gs1ImportedItemResult> {
    const domainId = (item.body.domain_id ?? null) as DomainId | null;
    const result = (action: Gs1ImportedItemResult['action'], id: string | null, errors: FieldError[] = []): Gs1ImportedItemResult => ({
      path: item.path ?? item.body.path,
      domain_id: domainId,
      rows: item.rows,
      action,
      id,
      errors,
    });
    const body = plainToInstance(Gs1ItemBodyDto, item.body);
    const errors = [...item.errors, ...validateSync(body).flatMap((error) => fieldErrors(error))];
    if (errors.length === 0) errors.push(...(await this.items.refusalsOf(accountId, body)));
    if (errors.length > 0 || item.path === null) return result('failed', null, errors);
    const existing = await this.items.idAt(accountId, domainId, item.path);
    if (dryRun) return result(existing ? 'update' : 'create', existing);
    try {
      if (existing) return result('update', (await this.items.update(accountId, existing, { name: body.name, links: body.links })).id);
      return result('create', (await this.items.create(accountId, body)).id);
    } catch (error) {
      if (!(error instanceof HttpException)) throw error;
      const fields = (error as { fieldErrors?: FieldError[] }).fieldErrors;
      return result('failed', existing, fields ?? [{ field: 'row', message: error.message }]);
    }
  }
}

/** class-validator's errors as field errors, named as the API names them (`links[0].href`). */
function fieldErrors(error: ValidationError, parent = ''): FieldError[] {
  const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
  const own = Object.values(error.constraints ?? {}).map((message) => ({ field, message }));
  return [...own, ...(error.children ?? []).flatMap((child) => fieldErrors(child, field))];
}
