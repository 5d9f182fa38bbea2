import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPropertyOptional,
  ApiProduces,
  ApiResponse,
  ApiSecurity,
  ApiTags,
  OmitType,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { sendDownload } from '../infra/http/download';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { JobId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { jobIdPipe } from '../common/validation/resource-id.pipe';
import { ListQrCodesQuery } from '../qrcodes/dto/list-qr-codes.query';
import { Idempotent } from '../infra/idempotency/idempotent.decorator';
import { CREATE_EXPORT_EXAMPLES, CreateExportDto, CSV_VIEWS, type CsvView, ExportJobView, MAX_ZIP_CODES, toExportView } from './dto/export.dto';
import { ExportsService } from './exports.service';
import { ListCsvService, misplacedWindowFields } from './list-csv.service';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';

const EXPORT_ID = { name: 'id', format: 'uuid', description: 'The export', example: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9' } as const;
const EXPORT_NOT_FOUND = {
  description: 'No such export among yours, or its ZIP expired (24 h after it was done)',
  message: 'Export not found',
} as const;
const ID_ERRORS = {
  400: { message: 'Validation failed: id must be a UUID', errors: [{ field: 'id', message: 'id must be a UUID' }] },
  404: EXPORT_NOT_FOUND,
} as const;

@ApiTags('exports')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/exports')
export class ExportsController {
  constructor(private readonly exports: ExportsService) {}

  @Post()
  @HttpCode(202)
  @RequiredScope('exports:write')
  @Idempotent()
  @ApiOperation({
    operationId: 'createExport',
    summary: `Export up to ${MAX_ZIP_CODES} QR codes as a ZIP of image files, or any number as a CSV of the list`,
    description:
      'Queues a job that draws each code (its `ids`, or the codes the list filters select: none given, all of yours) and writes them into a ZIP ' +
      'with `manifest.csv` (id, name, file, short_code, dynamic_url). With `format: csv` the job writes instead the CSV ' +
      '`GET /api/v1/qrcodes.csv` streams for the same filters, sort, `view` (and `from`/`to` for the report), byte for byte, ' +
      'however many codes match: use it for large accounts. Poll `GET /api/v1/exports/{id}`, then download. Needs `qrcodes:read` too.',
  })
  @ApiJsonBody(CreateExportDto, CREATE_EXPORT_EXAMPLES)
  @ApiAcceptedResponse({ type: ExportJobView, description: 'Queued' })
  @ApiErrorResponses({
    400: {
      description:
        'Bad options (an image option with csv, `view`/`from`/`to` without it, `from`/`to` without `view: report`, ids with csv), ' +
        'or a ZIP selection of more than 1,000 codes',
      message:
        'Validation failed: the selection holds 2400 codes; a ZIP holds at most 1000: ' +
        'narrow it (folder_id, type, is_dynamic, search, status) or give ids',
      errors: [
        {
          field: 'filters',
          message: 'the selection holds 2400 codes; a ZIP holds at most 1000: narrow it (folder_id, type, is_dynamic, search, status) or give ids',
        },
      ],
    },
    404: { description: 'An id or the folder is not among yours (named in errors)', message: 'QR code not found' },
    ...JSON_BODY_ERRORS,
  })
  async create(@CurrentAccount() account: AccountId, @Body() body: CreateExportDto) {
    return toExportView(await this.exports.submit(account, body), this.exports.baseUrl);
  }

  @Get(':id')
  @RequiredScope('exports:read')
  @ApiOperation({ operationId: 'getExport', summary: "An export's progress" })
  @ApiParam(EXPORT_ID)
  @ApiOkResponse({ type: ExportJobView })
  @ApiErrorResponses(ID_ERRORS)
  async get(@CurrentAccount() account: AccountId, @Param('id', jobIdPipe) id: JobId) {
    return toExportView(await this.exports.get(account, id), this.exports.baseUrl);
  }

  @Get(':id/download')
  @RequiredScope('exports:read')
  @ApiOperation({ operationId: 'downloadExport', summary: "Download an export's ZIP or CSV (streamed)" })
  @ApiParam(EXPORT_ID)
  @ApiProduces('application/zip', 'text/csv')
  @ApiResponse({
    status: 200,
    description:
      'The ZIP (one file per code and manifest.csv), or for `format: csv` the CSV (`qr-codes-….csv`, `qr-codes-report-….csv`), ' +
      'as `GET /api/v1/qrcodes.csv` writes it',
    headers: { 'Content-Disposition': { schema: { type: 'string', example: 'attachment; filename="qr-codes-5e6f7a8b.zip"' } } },
    content: {
      'application/zip': { schema: { type: 'string', format: 'binary' } },
      'text/csv': { schema: { type: 'string' }, example: 'type,name,is_dynamic,folder_id,folder_name,short_code,…\r\n' },
    },
  })
  @ApiErrorResponses({
    ...ID_ERRORS,
    409: { description: 'The export is not done yet', message: 'The export is running; download it once its status is done' },
  })
  async download(@CurrentAccount() account: AccountId, @Param('id', jobIdPipe) id: JobId, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.exports.download(account, id);
    await sendDownload(reply, {
      contentType: file.contentType,
      disposition: `attachment; filename="${file.fileName}"`,
      body: Readable.from(file.pieces()),
      length: file.bytes,
    });
  }
}

/** The list's query without its page (the CSV holds every matching code), the view, and the report's window. */
export class ListQrCodesCsvQuery extends OmitType(ListQrCodesQuery, ['page', 'limit'] as const) {
  @ApiPropertyOptional({
    enum: CSV_VIEWS,
    default: 'import',
    description:
      '`import` (default): the columns `POST /api/v1/imports` reads. `report`: one line per code with id, name, type, status, ' +
      'dynamic_url, tags, folder, scans, unique_visitors (in `from`..`to`), created_at, updated_at.',
  })
  @IsOptional()
  @IsIn(CSV_VIEWS, { message: `view must be one of: ${CSV_VIEWS.join(', ')}` })
  view?: CsvView;

  @ApiPropertyOptional({
    format: 'date-time',
    description: "With `view=report`: start of the unique visitors' window, inclusive (ISO 8601). Default: 30 days before `to`.",
  })
  @IsOptional()
  @IsString({ message: 'from must be a single ISO 8601 date-time' })
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'With `view=report`: end of the window, exclusive (ISO 8601). Default: now.' })
  @IsOptional()
  @IsString({ message: 'to must be a single ISO 8601 date-time' })
  to?: string;
}

const IMPORT_CSV_EXAMPLE =
  'type,name,is_dynamic,folder_id,folder_name,short_code,style,domain_id,expires_at,rules,max_scans,fallback_url,utm,tags,content.url,…\r\n' +
  'url,Spring poster,true,,,aB3dE5gH,,,,,,,"{""source"":""qr""}",spring|store-12,https://example.com/spring,…\r\n';
const REPORT_CSV_EXAMPLE =
  'id,name,type,status,dynamic_url,tags,folder,scans,unique_visitors,created_at,updated_at\r\n' +
  '3f2a9c1e-8b7d-4e6f-a5c4-1b2d3e4f5a6b,Spring poster,url,active,https://qr.example.com/aB3dE5gH,spring|posters,Campaigns,1250,830,' +
  '2026-11-02T09:15:00.000Z,2026-11-20T16:40:12.000Z\r\n';

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@Controller('api/v1')
export class QrCodesCsvController {
  constructor(private readonly csv: ListCsvService) {}

  @Get('qrcodes.csv')
  @RequiredScope('qrcodes:read')
  @ApiOperation({
    operationId: 'exportQrCodesCsv',
    summary: 'Your QR codes as CSV, with the list filters and sort (streamed, every matching code): the import format or a report',
    description:
      'Without `view` (or `view=import`) the columns are the ones `POST /api/v1/imports` reads, so the file imports as it is ' +
      '(into another account too: folders are named by `folder_name`). `view=report` is for people: id, name, type, status, ' +
      'dynamic_url, tags (`|`-separated), folder (its name), scans (all time), unique_visitors (in `from`..`to`, default the ' +
      'last 30 days), created_at, updated_at; cells a spreadsheet would read as a formula start with an apostrophe. ' +
      'The file is written by this request as you read it: for a large account (hundreds of thousands of codes), ask for the same file ' +
      'as a job (`POST /api/v1/exports` with `format: csv`), which a worker builds, and download it when done.',
  })
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: 'RFC 4180 CSV, UTF-8, comma-separated, CRLF line ends, a header line first',
    headers: { 'Content-Disposition': { schema: { type: 'string', example: 'attachment; filename="qr-codes.csv"' } } },
    content: {
      'text/csv': {
        schema: { type: 'string' },
        examples: {
          import: { summary: 'view=import (the default)', value: IMPORT_CSV_EXAMPLE },
          report: { summary: 'view=report', value: REPORT_CSV_EXAMPLE },
        },
      },
    },
  })
  @ApiErrorResponses({
    ...API_KEY_ROUTE_ERRORS,
    400: {
      description: 'A bad filter, view or window (`from`/`to` only with `view=report`), named in errors',
      message: 'Validation failed: sort must be one of: newest, oldest, name-asc, name-desc',
      errors: [{ field: 'sort', message: 'sort must be one of: newest, oldest, name-asc, name-desc' }],
    },
  })
  async list(@CurrentAccount() account: AccountId, @Query() query: ListQrCodesCsvQuery, @Res() reply: FastifyReply): Promise<void> {
    const { view = 'import', from, to, ...filters } = query;
    const misplaced = misplacedWindowFields(view, query);
    if (misplaced.length > 0) throw new ValidationFailedException(misplaced);
    const lines = this.csv.lines(account, { view, filters, window: view === 'report' ? this.csv.window({ from, to }) : null });
    // The first piece (the header, after the folders are read) before the status: a database that fails at once is still a 503.
    const first = await lines.next();
    async function* all() {
      if (!first.done) yield first.value;
      yield* lines;
    }
    await sendDownload(reply, {
      contentType: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${view === 'report' ? 'qr-codes-report.csv' : 'qr-codes.csv'}"`,
      body: Readable.from(all()),
    });
  }
}
