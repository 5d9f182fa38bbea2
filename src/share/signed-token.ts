import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tokens of public links (stats pages, image links): a record's UUID and an HMAC of it under a
 * secret, both base64url. A token proves the server issued it for that record; whether the record
 * still stands (revoked, expired) is the record's to say. Forged or altered tokens are refused
 * before any lookup, in constant time.
 */
const ID_BYTES = 16;
const MAC_BYTES = 16;
const ID_CHARACTERS = 22;
const TOKEN_CHARACTERS = 44;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** `purpose` separates the uses of one secret: a stats token is no image token. */
export function signToken(id: string, secret: Buffer, purpose: string): string {
  const idBytes = uuidBytes(id);
  return idBytes.toString('base64url') + mac(idBytes, secret, purpose).toString('base64url');
}

/** The record id a token names, read without checking the signature (to find the secret to check it with). */
export function tokenRecordId(token: string): string | null {
  if (token.length !== TOKEN_CHARACTERS || !BASE64URL.test(token)) return null;
  const idBytes = Buffer.from(token.slice(0, ID_CHARACTERS), 'base64url');
  if (idBytes.length !== ID_BYTES || idBytes.toString('base64url') !== token.slice(0, ID_CHARACTERS)) return null;
  return uuidText(idBytes);
}

/** Whether `token` was signed with `secret` for `purpose` (the comparison takes the same time whatever differs). */
export function tokenSigned(token: string, secret: Buffer, purpose: string): boolean {
  const id = tokenRecordId(token);
  if (!id) return false;
  const given = Buffer.from(token.slice(ID_CHARACTERS), 'base64url');
  // One spelling per signature: the last character's unused bits must be zero, as the signer wrote them.
  if (given.length !== MAC_BYTES || given.toString('base64url') !== token.slice(ID_CHARACTERS)) return false;
  return timingSafeEqual(given, mac(uuidBytes(id), secret, purpose));
}

function mac(idBytes: Buffer, secret: Buffer, purpose: string): Buffer {
  return createHmac('sha256', secret).update(purpose).update('\0').update(idBytes).digest().subarray(0, MAC_BYTES);
}

function uuidBytes(id: string): Buffer {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error('not a UUID');
  return Buffer.from(hex, 'hex');
}

function uuidText(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
