import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { KeyPrincipal } from '../../common/auth/key-principal';
import type { FolderId } from '../../common/ids/resource-ids';

/**
 * What the code below a controller needs to know about the request it works for, without every
 * signature carrying it: the request id and the API key (set by ApiKeyGuard). Repositories read the
 * key's folder restriction from it (AccountTables), the audit log its actor. Outside a request
 * (workers, the scan store, the CLI) there is none.
 */
export interface RequestContext {
  requestId: string;
  principal?: KeyPrincipal;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function currentRequest(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * Runs `work` as part of a request made earlier: a background job runs with the context of the
 * request that submitted it, so its queries keep the key's folder restriction and its writes are
 * audited under the key and request id.
 */
export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return storage.run(context, work);
}

/**
 * Enters each API request's context just before its handler: after the body is parsed (a body's
 * stream events would lose an earlier one), before Nest's guards run. The redirect host is a
 * Fastify instance of its own and pays nothing for it.
 */
export function enterRequestContexts(fastify: FastifyInstance): void {
  fastify.addHook('preHandler', (request, _reply, done) => storage.run({ requestId: request.id }, done));
}

/** The actor of a write made with the admin token (no key). */
export const ADMIN_ACTOR_PREFIX = 'admin';

/**
 * Who makes the current write, as the audit log and a code's history show it: the request's key's
 * display prefix; inside a request without a key the admin token made it ("admin"); outside one
 * (start-up's first key, the CLI) no key did (null).
 */
export function actorKeyPrefix(): string | null {
  const request = storage.getStore();
  return request?.principal?.keyPrefix ?? (request ? ADMIN_ACTOR_PREFIX : null);
}

/**
 * The folders the current request's key is limited to when it acts for `accountId`, else null
 * (every folder: no key, another account, or an unrestricted key).
 */
export function restrictedFolders(accountId: string): readonly FolderId[] | null {
  const principal = storage.getStore()?.principal;
  return principal && principal.accountId === accountId ? principal.folderIds : null;
}

/** The one message of a folder-restricted key that leaves a code or webhook outside its folders. */
export const OUTSIDE_KEY_FOLDERS = 'this API key is limited to some folders: folder_id must name one of them';
