import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import type { ApiKeyId } from '../common/ids/resource-ids';
import { apiKeyIdPipe } from '../common/validation/resource-id.pipe';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { SkipRateLimit } from '../infra/rate-limit/skip-rate-limit.decorator';
import { Public } from '../common/auth/public.decorator';
import { MessageView } from '../common/openapi/common-views';
import { ApiErrorResponses, JSON_BODY_ERRORS } from '../common/openapi/error-responses';
import { ApiJsonBody } from '../common/openapi/json-body';
import { ADMIN_TOKEN_SCHEME } from '../common/openapi/security-schemes';
import { AdminTokenGuard } from './admin-token.guard';
import { ApiKeysService } from './api-keys.service';
import {
  grantOf,
  ApiKeyListView,
  ApiKeyView,
  CREATE_API_KEY_EXAMPLES,
  ListApiKeysQuery,
  CreateApiKeyDto,
  CreatedApiKeyResponseView,
  CreatedApiKeyView,
} from './dto/api-key.dto';

@ApiTags('admin')
@ApiSecurity(ADMIN_TOKEN_SCHEME)
@ApiErrorResponses({
  401: { description: 'Missing or wrong X-Admin-Token', message: 'Invalid admin token' },
  404: { description: 'The admin API is off (ADMIN_TOKEN is not set), or no such key', message: 'Not found' },
  503: true,
})
@Public()
@SkipRateLimit()
@UseGuards(AdminTokenGuard)
@Controller('api/v1/admin/api-keys')
export class AdminApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ApiOperation({ operationId: 'createApiKey', summary: 'Create an API key (for a new account, or an existing one to rotate keys)' })
  @ApiJsonBody(CreateApiKeyDto, CREATE_API_KEY_EXAMPLES)
  @ApiCreatedResponse({ type: CreatedApiKeyResponseView, description: 'Created; `key` is shown only in this response' })
  @ApiErrorResponses({
    400: {
      description: 'Invalid input, or account_id names no account',
      message: 'Validation failed: name should not be empty',
      errors: [{ field: 'name', message: 'name should not be empty' }],
    },
    ...JSON_BODY_ERRORS,
  })
  async create(@Body() body: CreateApiKeyDto): Promise<CreatedApiKeyView> {
    return CreatedApiKeyView.from(await this.apiKeys.create(body.name, body.account_id, grantOf(body)));
  }

  @Get()
  @ApiOperation({ operationId: 'listApiKeys', summary: 'List API keys (never the keys themselves)' })
  @ApiOkResponse({ type: ApiKeyListView, description: 'One page of the keys, oldest first, revoked ones included' })
  @ApiErrorResponses({
    400: {
      message: 'Validation failed: limit must not be greater than 100',
      errors: [{ field: 'limit', message: 'limit must not be greater than 100' }],
    },
  })
  async list(@Query() query: ListApiKeysQuery) {
    const { keys, total } = await this.apiKeys.page(query.page, query.limit);
    return {
      data: keys.map((key) => ApiKeyView.from(key)),
      pagination: { page: query.page, limit: query.limit, total, total_pages: Math.ceil(total / query.limit) },
    };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke an API key: it answers 401 from then on' })
  @ApiParam({ name: 'id', description: 'Id of the key (not the key itself)', format: 'uuid', example: 'b2587ea3-9151-4197-b2c6-4df0a9cddaff' })
  @ApiOkResponse({ type: MessageView, description: 'Revoked' })
  @ApiErrorResponses({
    400: {
      description: 'id is not a UUID',
      message: 'Validation failed: id must be a UUID',
      errors: [{ field: 'id', message: 'id must be a UUID' }],
    },
  })
  async revoke(@Param('id', apiKeyIdPipe) id: ApiKeyId): Promise<{ message: string }> {
    await this.apiKeys.revoke(id);
    return { message: 'API key revoked' };
  }
}
