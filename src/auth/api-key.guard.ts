import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticatedRequest } from '../common/auth/current-account.decorator';
import { IS_PUBLIC } from '../common/auth/public.decorator';
import { RouteFlag } from '../common/routing/route-flag';
import { ApiKeysService } from './api-keys.service';

export const API_KEY_HEADER = 'x-api-key';

/**
 * Every route needs a valid key in the X-API-Key header unless marked @Public(). The key is read
 * only from the header: a key in the query string is never looked at.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly publicRoute: RouteFlag;

  constructor(
    reflector: Reflector,
    private readonly apiKeys: ApiKeysService,
  ) {
    this.publicRoute = new RouteFlag(reflector, IS_PUBLIC);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.publicRoute.isSet(context)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers[API_KEY_HEADER];
    if (typeof header !== 'string' || header === '') {
      throw new UnauthorizedException('Missing API key: send it in the X-API-Key header');
    }
    const accountId = await this.apiKeys.authenticate(header.trim());
    if (!accountId) throw new UnauthorizedException('Invalid API key');
    request.accountId = accountId;
    return true;
  }
}
