import { isIP } from 'node:net';
import type { FieldError } from '../common/validation/field-error';
import { addressRefusal } from '../common/web/address-policy';

export const MAX_URL_LENGTH = 2048;

export interface UrlRules {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/**
 * Checks an endpoint URL when it is set: https (http only with WEBHOOK_ALLOW_HTTP=1), no
 * credentials, and not an IP address the delivery rules refuse. A host name is judged only at
 * delivery, by what it resolves to then (DNS can change after this check).
 */
export function urlError(value: string, rules: UrlRules): FieldError | null {
  const field = 'url';
  if (value.length > MAX_URL_LENGTH) return { field, message: `url must be at most ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { field, message: 'url must be an absolute URL such as https://example.com/webhooks' };
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    return {
      field,
      message: rules.allowHttp
        ? 'url must use https or http'
        : 'url must use https (http is accepted only when the server sets WEBHOOK_ALLOW_HTTP=1)',
    };
  }
  if (url.username || url.password) return { field, message: 'url must not contain a user name or password' };
  if (url.hash) return { field, message: 'url must not contain a fragment (#...)' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!rules.allowPrivate && isIP(host)) {
    const refusal = addressRefusal(host);
    if (refusal) return { field, message: `url must point to a public address: ${refusal}` };
  }
  return null;
}
