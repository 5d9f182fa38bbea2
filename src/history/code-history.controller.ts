import { Controller, Get, HttpCode, Injectable, Param, type PipeTransform, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { QrCodeId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { qrCodeIdPipe } from '../common/validation/resource-id.pipe';
import { ApiQrCodeIdParam, QR_CODE_NOT_FOUND } from '../qrcodes/qr-codes.controller';
import { CodeHistoryService } from './code-history.service';
import { CodeHistoryQuery, CodeHistoryView, CodeRestoredView } from './dto/code-history.dto';

/** The largest version number a path may name (the column is a 4-byte integer). */
const MAX_VERSION = 2_147_483_647;

/**
 * The `version` path parameter: a positive integer, else null (refused with a 400 naming it once the
 * code is found: a code that is not yours is a 404 whatever the version says). Typed loosely so the
 * app's validation pipe hands the text over as it came.
 */
@Injectable()
class VersionPipe implements PipeTransform<string, number | null> {
  transform(value: string): number | null {
    const version = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
    return version <= MAX_VERSION ? version : null;
  }
}

@ApiTags('qrcodes')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/qrcodes')
export class CodeHistoryController {
  constructor(private readonly history: CodeHistoryService) {}

  @Get(':id/history')
  @RequiredScope('qrcodes:read')
  @ApiOperation({
    operationId: 'listQrCodeHistory',
    summary: "A QR code's destination history: every change of its content, status or expiry as a version, newest first",
    description:
      'Version 1 is the code as created; each update that changes a versioned field adds the next version, with the fields it ' +
      'changed before and after, when, and the key that made it. Renames, styles and folder moves are not versions ' +
      '(the audit log has them). Deleting the code deletes its history.',
  })
  @ApiQrCodeIdParam()
  @ApiOkResponse({ type: CodeHistoryView, description: 'One page of versions, newest first' })
  @ApiErrorResponses({
    400: {
      description: 'The id is not a UUID, or page or limit out of range',
      message: 'Validation failed: limit must not be greater than 100',
      errors: [{ field: 'limit', message: 'limit must not be greater than 100' }],
    },
    ...QR_CODE_NOT_FOUND,
  })
  async list(@CurrentAccount() account: AccountId, @Param('id', qrCodeIdPipe) id: QrCodeId, @Query() query: CodeHistoryQuery) {
    const { entries, total } = await this.history.page(account, id, query.page, query.limit);
    return { data: entries, pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) } };
  }

  @Post(':id/history/:version/restore')
  @RequiredScope('qrcodes:write')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'restoreQrCodeVersion',
    summary: "Set a QR code's content, status and expiry back to those of one of its versions, as a new version",
    description:
      'An update of the versioned fields that differ from the version, with the checks of an update: content that is no ' +
      'longer accepted, or an expiry that has passed, is refused (400 naming the field). The new version names the ' +
      'restored one in restored_from; when nothing differs, nothing changes and the current version is answered.',
  })
  @ApiParam({
    name: 'version',
    description: 'A version number from the history (1: the code as created)',
    schema: { type: 'integer', minimum: 1, example: 1 },
  })
  @ApiQrCodeIdParam()
  @ApiOkResponse({ type: CodeRestoredView, description: 'Restored: the version made, and the code as it is now' })
  @ApiErrorResponses({
    400: {
      description: 'The id is not a UUID, the version not a positive integer, or the version fails the checks of an update',
      message: 'Validation failed: expires_at must be in the future',
      errors: [{ field: 'expires_at', message: 'expires_at must be in the future' }],
    },
    404: { description: 'No such QR code among yours, or no such version of it', message: 'This QR code has no version 7' },
  })
  async restore(
    @CurrentAccount() account: AccountId,
    @Param('id', qrCodeIdPipe) id: QrCodeId,
    @Param('version', VersionPipe) version: number | null,
  ) {
    const restored = await this.history.restore(account, id, version);
    return { message: `QR code restored to version ${version}`, ...restored };
  }
}
