import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AccountId } from '../ids/account-id';
import type { KeyPrincipal } from './key-principal';

export interface AuthenticatedRequest extends FastifyRequest {
  accountId?: AccountId;
  principal?: KeyPrincipal;
}

/** The account of the request's API key (set by ApiKeyGuard). */
export const CurrentAccount = createParamDecorator((_data: unknown, context: ExecutionContext): AccountId => {
  const accountId = context.switchToHttp().getRequest<AuthenticatedRequest>().accountId;
  if (!accountId) throw new Error('CurrentAccount used on a route without ApiKeyGuard');
  return accountId;
});

/** The request's API key: its id, prefix, scopes and folders (set by ApiKeyGuard). */
export const CurrentKey = createParamDecorator((_data: unknown, context: ExecutionContext): KeyPrincipal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentKey used on a route without ApiKeyGuard');
  return principal;
});
