import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentKey } from '../common/auth/current-account.decorator';
import type { KeyPrincipal } from '../common/auth/key-principal';
import { RequiredScope } from '../common/auth/required-scope.decorator';
import type { ApiKeyId } from '../common/ids/resource-ids';
import { MessageView } from '../common/openapi/common-views';
import { API_KEY_ROUTE_ERRORS, ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { API_KEY_SCHEME } from '../common/openapi/security-schemes';
import { apiKeyIdPipe } from '../common/validation/resource-id.pipe';
import { ApiKeysService } from './api-keys.service';
import {
  ApiKeyListView,
  ApiKeyView,
  CREATE_OWN_API_KEY_EXAMPLES,
  CreatedApiKeyResponseView,
  CreatedApiKeyView,
  CreateOwnApiKeyDto,
  grantOf,
  ListApiKeysQuery,
} from './dto/api-key.dto';

/** An account's own keys, managed with a key that holds `keys:write` (docs/api-keys-and-security.md#scopes). */
@ApiTags('api-keys')
@ApiSecurity(API_KEY_SCHEME)
@ApiErrorResponses(API_KEY_ROUTE_ERRORS)
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @RequiredScope('keys:write')
  @ApiOperation({
    operationId: 'createOwnApiKey',
    summary: 'Create a key for this account, with at most the scopes, folders and lifetime of the calling key',
  })
  @ApiJsonBody(CreateOwnApiKeyDto, CREATE_OWN_API_KEY_EXAMPLES)
  @ApiCreatedResponse({ type: CreatedApiKeyResponseView, description: 'Created; `key` is shown only in this response' })
  @ApiErrorResponses({
    400: {
      description: 'Unknown scope, a folder of no folder of the account, expires_at not in the future',
      message: 'Validation failed: unknown scope "codes:write"',
      errors: [{ field: 'scopes[0]', message: 'unknown scope "codes:write"' }],
    },
    403: {
      description: 'The calling key lacks keys:write, or the new key would hold more than it does',
      message: 'A key cannot grant more than it holds: scopes',
      errors: [{ field: 'scopes', message: 'this key cannot grant scopes it does not hold: *' }],
    },
    ...JSON_BODY_ERRORS,
  })
  async create(@CurrentKey() key: KeyPrincipal, @Body() body: CreateOwnApiKeyDto): Promise<CreatedApiKeyView> {
    return CreatedApiKeyView.from(await this.apiKeys.createByKey(key, body.name, grantOf(body)));
  }

  @Get()
  @RequiredScope('keys:read')
  @ApiOperation({ operationId: 'listOwnApiKeys', summary: "List this account's keys, newest first (never the keys themselves)" })
  @ApiOkResponse({ type: ApiKeyListView, description: 'One page of the keys, revoked ones included' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: limit must not be greater than 100',
      errors: [{ field: 'limit', message: 'limit must not be greater than 100' }],
    },
  })
  async list(@CurrentKey() key: KeyPrincipal, @Query() query: ListApiKeysQuery) {
    const { keys, total } = await this.apiKeys.pageOfAccount(key.accountId, query.page, query.limit);
    return {
      data: keys.map((record) => ApiKeyView.from(record)),
      pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
    };
  }

  @Delete(':id')
  @HttpCode(200)
  @RequiredScope('keys:write')
  @ApiOperation({ operationId: 'revokeOwnApiKey', summary: "Revoke one of this account's keys (not its last key that can manage keys)" })
  @ApiParam({ name: 'id', description: 'Id of the key (not the key itself)', format: 'uuid', example: 'b2587ea3-9151-4197-b2c6-4df0a9cddaff' })
  @ApiOkResponse({ type: MessageView, description: 'Revoked: the key answers 401 from then on' })
  @ApiErrorResponses({
    400: {
      description: 'id is not a UUID, or names the last key of the account that can manage keys',
      message: 'Validation failed: id must be a UUID',
      errors: [{ field: 'id', message: 'id must be a UUID' }],
    },
    404: { description: 'No unrevoked key of this account has this id', message: 'API key not found' },
  })
  async revoke(@CurrentKey() key: KeyPrincipal, @Param('id', apiKeyIdPipe) id: ApiKeyId): Promise<{ message: string }> {
    await this.apiKeys.revokeByKey(key, id);
    return { message: 'API key revoked' };
  }
}
