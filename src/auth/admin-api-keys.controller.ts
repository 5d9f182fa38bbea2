import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipRateLimit } from '../infra/rate-limit/skip-rate-limit.decorator';
import { Public } from '../common/auth/public.decorator';
import { AdminTokenGuard } from './admin-token.guard';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyView, CreateApiKeyDto, CreatedApiKeyView } from './dto/api-key.dto';

@ApiTags('admin')
@ApiHeader({ name: 'X-Admin-Token', required: true, description: 'The ADMIN_TOKEN of the deployment' })
@Public()
@SkipRateLimit()
@UseGuards(AdminTokenGuard)
@Controller('api/v1/admin/api-keys')
export class AdminApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key (for a new account, or an existing one to rotate keys)' })
  async create(@Body() body: CreateApiKeyDto): Promise<CreatedApiKeyView> {
    return CreatedApiKeyView.from(await this.apiKeys.create(body.name, body.account_id));
  }

  @Get()
  @ApiOperation({ summary: 'List API keys (never the keys themselves)' })
  async list(): Promise<{ data: ApiKeyView[] }> {
    return { data: (await this.apiKeys.list()).map(ApiKeyView.from) };
  }

  @Delete(':id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key: it answers 401 from then on' })
  async revoke(@Param('id', new ParseUUIDPipe()) id: string): Promise<{ message: string }> {
    await this.apiKeys.revoke(id);
    return { message: 'API key revoked' };
  }
}
