import { type CanActivate, type ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthenticatedRequest } from '../common/auth/current-account.decorator';
import { IS_PUBLIC } from '../common/auth/public.decorator';
import { REQUIRED_SCOPE } from '../common/auth/required-scope.decorator';
import { allows, type Scope } from '../common/auth/scopes';
import { RouteFlag } from '../common/routing/route-flag';
import { currentRequest } from '../infra/http/request-context';
import { ApiKeysService } from './api-keys.service';

export const API_KEY_HEADER = 'x-api-key';

/**
 * Every route needs a valid, unexpired key in the X-API-Key header unless marked @Public(), and the
 * scope the route declares with @RequiredScope (docs/api-keys-and-security.md#scopes). The key is
 * read only from the header: a key in the query string is never looked at. A route with no scope
 * is refused for every key (src/auth/route-scopes.spec.ts keeps that from happening).
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly publicRoute: RouteFlag;
  /** Per handler: decorators do not change at run time. */
  private readonly scopes = new WeakMap<object, Scope | null>();

  constructor(
    private readonly reflector: Reflector,
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
    const authentication = await this.apiKeys.authenticate(header.trim());
    if (!authentication.ok) throw new UnauthorizedException(authentication.reason === 'expired' ? 'API key expired' : 'Invalid API key');
    const { principal } = authentication;
    const needed = this.scopeOf(context);
    if (!needed) throw new ForbiddenException('This route declares no scope, so no key may call it');
    if (!allows(principal.scopes, needed)) throw new ForbiddenException(`This API key lacks the scope ${needed}`);
    request.accountId = principal.accountId;
    request.principal = principal;
    // Repositories narrow a folder-restricted key's queries from here (tables.ts), the audit log names it.
    const requestContext = currentRequest();
    if (requestContext) requestContext.principal = principal;
    return true;
  }

  private scopeOf(context: ExecutionContext): Scope | null {
    const handler = context.getHandler();
    let scope = this.scopes.get(handler);
    if (scope === undefined) {
      scope = this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, [handler, context.getClass()]) ?? null;
      this.scopes.set(handler, scope);
    }
    return scope;
  }
}
