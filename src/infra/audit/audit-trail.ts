import type { AccountId } from '../../common/ids/account-id';
import type { Tables } from '../database/tables';

/** What an audit entry can be about; a write of a new kind of resource adds its name here (the API's enum follows). */
export const AUDIT_RESOURCE_TYPES = [
  'qrcode',
  'folder',
  'tag',
  'brand_kit',
  'domain',
  'webhook',
  'api_key',
  'import',
  'export',
  'share_link',
  'image_link',
  'gs1_item',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/** A resource's fields as the API names them (`folder_id`, not `folderId`). */
export type AuditedFields = Record<string, unknown>;

/**
 * One write through the API, as the feature that made it describes it: the resource before and
 * after (create: after only; delete: before only), or the ids a bulk write made. Which fields
 * changed, and which are secrets shown only as "changed", is the audit log's rule, not the caller's.
 */
export interface AuditedWrite {
  accountId: AccountId;
  /** `<resource>.<verb>`, e.g. `qrcode.update`, `webhook.rotate_secret` */
  action: string;
  resourceType: AuditResourceType;
  resourceId: string | null;
  before?: AuditedFields;
  after?: AuditedFields;
  /** fields whose values are never recorded (a secret, key material, a password) */
  secretFields?: readonly string[];
  /** a bulk write: the ids it made */
  ids?: readonly string[];
}

/**
 * The port through which features record their writes in the audit log (docs/api-keys-and-security.md#audit-log),
 * called with the write's own transaction so that the entry commits with the change or not at all.
 * Implemented by the audit module (AuditRecorder); features depend on this port only.
 */
export abstract class AuditTrail {
  abstract record(tx: Tables, write: AuditedWrite): Promise<void>;
}
