import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentAccount } from '../common/auth/current-account.decorator';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { AccountId } from '../common/ids/account-id';
import type { ApiKeyId } from '../common/ids/resource-ids';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses } from '../common/openapi/error-responses';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { ValidationFailedException } from '../common/validation/validation-failed.exception';
import { AuditLogService } from './audit-log.service';
import { AuditEntryView, AuditLogQuery, AuditLogView } from './dto/audit-log.dto';

@ApiTags('audit')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/audit-log')
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Get()
  @RequiredScope('audit:read')
  @ApiOperation({ operationId: 'listAuditLog', summary: 'List the audit log of this account: every write through the API, newest first' })
  @ApiOkResponse({ type: AuditLogView, description: 'One page of entries; next_cursor continues with older ones' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: from must be an ISO 8601 date-time',
      errors: [{ field: 'from', message: 'from must be an ISO 8601 date-time' }],
    },
  })
  async list(@CurrentAccount() account: AccountId, @Query() query: AuditLogQuery): Promise<Omit<AuditLogView, 'request_id'>> {
    const entries = await this.audit.page(
      account,
      {
        resourceType: query.resource_type,
        resourceId: query.resource_id,
        keyId: query.key_id as ApiKeyId | undefined,
        action: query.action,
        from: query.from === undefined ? undefined : new Date(query.from),
        to: query.to === undefined ? undefined : new Date(query.to),
        beforeSeq: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      },
      query.limit + 1,
    );
    const page = entries.slice(0, query.limit);
    return {
      data: page.map((entry): AuditEntryView => ({
        id: entry.id,
        created_at: entry.createdAt.toISOString(),
        key_id: entry.keyId,
        key_prefix: entry.keyPrefix,
        action: entry.action,
        resource_type: entry.resourceType,
        resource_id: entry.resourceId,
        request_id: entry.requestId,
        changes: { ...entry.changes },
      })),
      next_cursor: entries.length > query.limit ? encodeCursor(page[page.length - 1].seq) : null,
    };
  }
}

/** The cursor is opaque to clients: the position (commit order) of the last entry they saw. */
function encodeCursor(seq: bigint): string {
  return Buffer.from(seq.toString()).toString('base64url');
}

function decodeCursor(cursor: string): bigint {
  const text = Buffer.from(cursor, 'base64url').toString();
  if (!/^\d{1,19}$/.test(text)) throw new ValidationFailedException([{ field: 'cursor', message: 'cursor must be a next_cursor of this list' }]);
  return BigInt(text);
}
