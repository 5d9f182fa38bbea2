import { Body, Controller, HttpCode, Post, Query, UnsupportedMediaTypeException } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../../common/auth/current-account.decorator';
import { RequiredScope } from '../../common/auth/required-scope.decorator';
import type { AccountId } from '../../common/ids/account-id';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../../common/openapi/security-schemes';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../../imports/csv-file';
import { CreateImportQuery } from '../../imports/dto/import.dto';
import { Gs1LinkImportView } from './dto/gs1-link-import.view';
import { GS1_LINK_CSV_COLUMNS } from './gs1-link-csv';
import { Gs1LinkImport } from './gs1-link-import.service';

/** The route of the import; its text/csv body is read by the CSV body parser (app.factory.ts). */
export const GS1_LINK_IMPORT_PATH = '/api/v1/gs1/items/import';

const EXAMPLE_CSV =
  'path,name,link_type,href,title,hreflang,default\n' +
  '/01/09506000134376,Risotto rice,gs1:pip,https://brand.example/rice,Product information,en,true\n' +
  '/01/09506000134376,Risotto rice,gs1:recallStatus,https://brand.example/recall?lot={10},Recall status,en,false\n';

@ApiTags('gs1')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/gs1/items')
export class Gs1ImportController {
  constructor(private readonly importer: Gs1LinkImport) {}

  @Post('import')
  @HttpCode(200)
  @RequiredScope('gs1:write')
  @ApiOperation({
    operationId: 'importGs1Links',
    summary: `Import GS1 items' links from a CSV file, one row per link (up to ${MAX_IMPORT_ROWS} rows)`,
    description:
      `Columns: ${GS1_LINK_CSV_COLUMNS.join(', ')} (path, link_type, href and title required; hreflang and context separated by spaces or commas; ` +
      'default true on exactly one row per item). Rows of one host and path are one item: created, or, when you have it already, its links ' +
      '(and name, when given) replaced. Each item is checked like POST /api/v1/gs1/items; a failing item never stops the others. ' +
      '`dry_run=true` checks every item and writes nothing.',
  })
  @ApiConsumes('text/csv')
  @ApiBody({ description: 'RFC 4180 CSV, UTF-8, `,` or `;` between cells', schema: { type: 'string', example: EXAMPLE_CSV } })
  @ApiOkResponse({ type: Gs1LinkImportView, description: 'What was (or, in a dry run, would be) created, updated or refused, per item' })
  @ApiErrorResponses({
    400: {
      description: 'A file that cannot be read: not CSV, no rows, too many rows, unknown, repeated or missing columns',
      message: 'Validation failed: the CSV needs a href column',
      errors: [{ field: 'columns.href', message: 'the CSV needs a href column' }],
    },
    413: { description: `Body larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB`, message: 'Request body is too large' },
    415: { description: 'Body not sent as text/csv', message: 'Unsupported content type; send the CSV as text/csv' },
  })
  async import(@CurrentAccount() account: AccountId, @Query() query: CreateImportQuery, @Body() body: unknown) {
    if (typeof body !== 'string') throw new UnsupportedMediaTypeException('Unsupported content type; send the CSV as text/csv');
    return this.importer.run(account, body, query.dry_run === 'true');
  }
}
