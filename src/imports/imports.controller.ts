import { Body, Controller, Get, HttpCode, Param, Post, Query, UnsupportedMediaTypeException } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { JobId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { jobIdPipe } from '../common/validation/resource-id.pipe';
import { Idempotent } from '../infra/idempotency/idempotent.decorator';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './csv-file';
import {
  CreateImportQuery,
  IMPORT_CSV_EXAMPLE,
  ImportJobView,
  ImportResultsQuery,
  ImportResultsView,
  toImportView,
  toRowView,
} from './dto/import.dto';
import { ImportsService } from './imports.service';

export const CSV_MEDIA_TYPE = 'text/csv';

@ApiTags('imports')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/imports')
export class ImportsController {
  constructor(private readonly imports: ImportsService) {}

  @Post()
  @HttpCode(202)
  @RequiredScope('imports:write')
  @Idempotent()
  @ApiOperation({
    operationId: 'createImport',
    summary: `Import QR codes from a CSV file (up to ${MAX_IMPORT_ROWS} rows)`,
    description:
      'The file is read at once (a file that cannot be read, or has unknown columns, is a 400 and nothing is queued); its rows are then ' +
      'checked and created as a job: poll `GET /api/v1/imports/{id}`. Each row is checked like a bulk-create item, and a failing row ' +
      'never stops the others. Needs `qrcodes:write` too unless `dry_run=true`. Counts once against the rate limit. The columns: ' +
      '`type`, `name`, `is_dynamic`, `folder_id` or `folder_name`, `short_code` (read, not reused: a new code gets a short link of its own), ' +
      '`style` (JSON), the smart-link fields `domain_id`, `expires_at`, `rules` (JSON array), `max_scans`, `fallback_url`, `utm` ' +
      '(JSON object), and `content.<field>` per content field; see docs/exports-and-imports.md.',
  })
  @ApiConsumes(CSV_MEDIA_TYPE)
  @ApiBody({
    description: `RFC 4180 CSV, UTF-8 (a byte order mark is fine), \`,\` or \`;\` between cells, at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`,
    schema: { type: 'string', example: IMPORT_CSV_EXAMPLE },
  })
  @ApiAcceptedResponse({ type: ImportJobView, description: 'Queued' })
  @ApiErrorResponses({
    400: {
      description: 'A file that cannot be read: not CSV, no rows, too many rows or bytes, unknown or repeated columns',
      message: 'Validation failed: unknown column "colour"; the columns are type, name, …',
      errors: [{ field: 'columns.colour', message: 'unknown column "colour"; the columns are type, name, …' }],
    },
    413: { description: `Body larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`, message: 'Request body is too large' },
    415: { description: 'Body not sent as text/csv', message: 'Unsupported content type; send the CSV as text/csv' },
  })
  async create(@CurrentAccount() account: AccountId, @Query() query: CreateImportQuery, @Body() body: unknown) {
    if (typeof body !== 'string') throw new UnsupportedMediaTypeException('Unsupported content type; send the CSV as text/csv');
    return toImportView(await this.imports.submit(account, body, query.dry_run === 'true'));
  }

  @Get(':id')
  @RequiredScope('imports:read')
  @ApiOperation({ operationId: 'getImport', summary: "An import's progress and its results per row" })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The import', example: '9a4f1c2e-7b3d-4e8a-b1c0-2d5e6f7a8b9c' })
  @ApiOkResponse({ type: ImportResultsView })
  @ApiErrorResponses({
    400: { message: 'Validation failed: id must be a UUID', errors: [{ field: 'id', message: 'id must be a UUID' }] },
    404: { description: 'No such import among yours (or its results expired)', message: 'Import not found' },
  })
  async get(@CurrentAccount() account: AccountId, @Param('id', jobIdPipe) id: JobId, @Query() query: ImportResultsQuery) {
    const { job, counts, rows } = await this.imports.results(account, id, query.status, query.page, query.limit);
    return { ...toImportView(job), counts, rows: rows.map(toRowView) };
  }
}
