import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AccountId } from '../ids/account-id';

export interface AuthenticatedRequest extends FastifyRequest {
  accountId?: AccountId;
}

/** The account of the request's API key (set by ApiKeyGuard). */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): AccountId => {
  const accountId = context.switchToHttp().getRequest<AuthenticatedRequest>().accountId;
  if (!accountId) throw new Error('CurrentAccount used on a route without ApiKeyGuard');
  return accountId;
});
