import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { JobId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { jobIdPipe } from '../common/validation/resource-id.pipe';
import { Idempotent } from '../infra/idempotency/idempotent.decorator';
import { type BulkAnswer, BulkEditsService, MAX_CODES_IN_REQUEST } from './bulk-edits.service';
import { BulkDeleteDto, BulkEditQuery, BulkUpdateDto } from './dto/bulk-edit.dto';
import { BULK_DELETE_EXAMPLES, BULK_UPDATE_EXAMPLES } from './dto/bulk-edit.examples';
import { BulkEditJobView, BulkEditResultView, toJobView, toResultView } from './dto/bulk-edit.views';

const SELECTION =
  'The codes are those the list (`GET /api/v1/qrcodes`) shows with `filter` (its query parameters as JSON, `tag` and `tag_any` as arrays; ' +
  "`{}`: all of yours; a folder-restricted key's folders only) or the codes of `ids`. " +
  `Up to ${MAX_CODES_IN_REQUEST} codes are done within the request (200, the result); more are a job (202): ` +
  "poll `GET` on the same path with the answer's `id` (a 200 answer has one too). " +
  '`dry_run=true` answers what would change and writes nothing (200, whatever the count).';

const ERRORS = {
  400: {
    description: 'Invalid selection or change set (each error names its field: `filter.tag[0]`, `set.status`, `add_tags[2]`…)',
    message: 'Validation failed: give filter (the list filters; {} for all your codes) or ids',
    errors: [{ field: 'filter', message: 'give filter (the list filters; {} for all your codes) or ids' }],
  },
  404: { description: "An id of `ids` or the filter's folder is not one of yours", message: 'QR code not found' },
  429: { description: 'Ten bulk edits of the account wait or run already' },
  ...JSON_BODY_ERRORS,
} as const;

const NOT_FOUND = { 404: { description: 'No such bulk edit among yours (or its result has expired)', message: 'Bulk edit not found' } } as const;

/** Answers 200 with the result, or 202 with the job doing it. */
function answer(reply: FastifyReply, result: BulkAnswer) {
  if (result.kind === 'done') return toResultView(result.id, result.outcome, result.dryRun);
  reply.status(202);
  return toJobView(result.job);
}

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1')
export class BulkEditsController {
  constructor(private readonly bulkEdits: BulkEditsService) {}

  @Post('qrcodes/bulk-update')
  @HttpCode(200)
  @RequiredScope('qrcodes:write')
  @Idempotent()
  @ApiOperation({
    operationId: 'bulkUpdateQrCodes',
    summary: 'Change many codes at once: by the list filters or ids',
    description:
      `${SELECTION} The change set: \`set\` (status, folder_id, expires_at, domain_id, utm, style: the same value on every code), ` +
      '`add_tags`, `remove_tags`, `replace_target` `{from, to}` (url codes whose URL starts with `from`). Each code is changed ' +
      "as a single update would change it (audit entry `qrcode.update` with this request's id, history version, webhook); a code " +
      'whose fields already match is not changed, a code the update refuses is listed in `errors` and the others go on.',
  })
  @ApiJsonBody(BulkUpdateDto, BULK_UPDATE_EXAMPLES)
  @ApiOkResponse({ type: BulkEditResultView, description: `Done (or dry): up to ${MAX_CODES_IN_REQUEST} codes` })
  @ApiAcceptedResponse({ type: BulkEditJobView, description: `Queued: more than ${MAX_CODES_IN_REQUEST} codes` })
  @ApiErrorResponses(ERRORS)
  async update(
    @CurrentAccount() account: AccountId,
    @Query() query: BulkEditQuery,
    @Body() body: BulkUpdateDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return answer(reply, await this.bulkEdits.update(account, body, query.dry_run === 'true'));
  }

  @Post('qrcodes/bulk-delete')
  @HttpCode(200)
  @RequiredScope('qrcodes:write')
  @Idempotent()
  @ApiOperation({
    operationId: 'bulkDeleteQrCodes',
    summary: 'Delete many codes at once: by the list filters or ids',
    description: `${SELECTION} Each code is deleted as a single delete would (audit entry \`qrcode.delete\`, webhook).`,
  })
  @ApiJsonBody(BulkDeleteDto, BULK_DELETE_EXAMPLES)
  @ApiOkResponse({ type: BulkEditResultView, description: `Done (or dry): up to ${MAX_CODES_IN_REQUEST} codes` })
  @ApiAcceptedResponse({ type: BulkEditJobView, description: `Queued: more than ${MAX_CODES_IN_REQUEST} codes` })
  @ApiErrorResponses(ERRORS)
  async delete(
    @CurrentAccount() account: AccountId,
    @Query() query: BulkEditQuery,
    @Body() body: BulkDeleteDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    return answer(reply, await this.bulkEdits.delete(account, body, query.dry_run === 'true'));
  }

  @Get('qrcodes/bulk-update/:id')
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'getBulkUpdate', summary: "A bulk update's progress, then its result (kept 7 days)" })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The bulk update: the `id` of its answer' })
  @ApiOkResponse({ type: BulkEditJobView })
  @ApiErrorResponses(NOT_FOUND)
  async getUpdate(@CurrentAccount() account: AccountId, @Param('id', jobIdPipe) id: JobId) {
    return toJobView(await this.bulkEdits.get(account, id, 'update'));
  }

  @Get('qrcodes/bulk-delete/:id')
  @RequiredScope('qrcodes:read')
  @ApiOperation({ operationId: 'getBulkDelete', summary: "A bulk delete's progress, then its result (kept 7 days)" })
  @ApiParam({ name: 'id', format: 'uuid', description: 'The bulk delete: the `id` of its answer' })
  @ApiOkResponse({ type: BulkEditJobView })
  @ApiErrorResponses(NOT_FOUND)
  async getDelete(@CurrentAccount() account: AccountId, @Param('id', jobIdPipe) id: JobId) {
    return toJobView(await this.bulkEdits.get(account, id, 'delete'));
  }
}
