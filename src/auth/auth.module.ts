import { Module } from '@nestjs/common';
import { AdminApiKeysController } from './admin-api-keys.controller';
import { ApiKeysController } from './api-keys.controller';
import { AdminTokenGuard } from './admin-token.guard';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  controllers: [ApiKeysController, AdminApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, ApiKeyGuard, AdminTokenGuard],
  exports: [ApiKeysService, ApiKeyGuard],
})
export class AuthModule {}
