import type { AccountId } from '../ids/account-id';
import type { ApiKeyId, FolderId } from '../ids/resource-ids';
import type { GrantedScope } from './scopes';

/** The API key a request is made with, as ApiKeyGuard found it. */
export interface KeyPrincipal {
  keyId: ApiKeyId;
  /** the key's display prefix (`qr_live_AbCd`), never the key */
  keyPrefix: string;
  accountId: AccountId;
  scopes: readonly GrantedScope[];
  /** null: every folder of the account; else only codes (and webhooks) in these folders */
  folderIds: readonly FolderId[] | null;
  /** epoch ms after which the key answers 401, or null: never */
  expiresAt: number | null;
}
