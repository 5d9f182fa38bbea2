import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Scope } from './scopes';

export const REQUIRED_SCOPE = 'requiredScope';
/** The OpenAPI extension naming an operation's scope (the document also says it in the description). */
export const REQUIRED_SCOPE_EXTENSION = 'x-required-scope';

/**
 * The scope a route needs (docs/api-keys-and-security.md#scopes): the one place a route declares
 * it. ApiKeyGuard refuses a key without it (403 naming the scope); a route with an API key and no
 * scope is refused too, and src/auth/route-scopes.spec.ts fails for it.
 */
export const RequiredScope = (scope: Scope) => applyDecorators(SetMetadata(REQUIRED_SCOPE, scope), ApiExtension(REQUIRED_SCOPE_EXTENSION, scope));
