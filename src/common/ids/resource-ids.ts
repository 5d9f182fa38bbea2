/**
 * Ids of owned resources, branded by kind: a folder id does not fit where a code id goes, and an id
 * gets its brand only where it was checked (an id pipe, or a row read from the database).
 */
export type QrCodeId = string & { readonly __brand: 'QrCodeId' };
export type FolderId = string & { readonly __brand: 'FolderId' };
export type DomainId = string & { readonly __brand: 'DomainId' };
export type Gs1ItemId = string & { readonly __brand: 'Gs1ItemId' };
export type ApiKeyId = string & { readonly __brand: 'ApiKeyId' };
export type WebhookId = string & { readonly __brand: 'WebhookId' };
export type DeliveryId = string & { readonly __brand: 'DeliveryId' };
/** An event's id is also its `webhook-id` header: the same on every attempt of it. */
export type WebhookEventId = string & { readonly __brand: 'WebhookEventId' };
/** A background job: an export or an import (its id is the export's or the import's). */
export type JobId = string & { readonly __brand: 'JobId' };
export type TagId = string & { readonly __brand: 'TagId' };
export type BrandKitId = string & { readonly __brand: 'BrandKitId' };
/** A public stats page's link (its token names it). */
export type ShareLinkId = string & { readonly __brand: 'ShareLinkId' };
/** A public image URL's link (its token names it). */
export type ImageLinkId = string & { readonly __brand: 'ImageLinkId' };

/** A UUID in any case; ids are compared in lower case, as Postgres prints them. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** The message of every id that is not a UUID, in a path, a query or a body field. */
export const notAUuid = (field: string) => `${field} must be a UUID`;
