import type { FieldError } from './field-error';

/**
 * NUL and unpaired UTF-16 surrogates: PostgreSQL cannot store them in text or JSONB (it answers
 * 22021/22P05, which would be a 500), and encodeURIComponent throws on the latter. Every request
 * body and query passes this one check before validation (AppValidationPipe); bulk items pass it
 * one by one, so only the item that carries such text fails.
 */
// eslint-disable-next-line no-control-regex -- NUL is the character this pattern exists to find
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** JSON bodies are at most 32 levels deep (the body parser refuses deeper ones); queries are flat. */
const MAX_DEPTH = 64;

const message = (path: string) => `${path} contains a character that cannot be stored (NUL or an unpaired UTF-16 surrogate)`;

/**
 * One error per string (value or key) holding unstorable text, named by its path (`name`,
 * `content.address.city`, `qrcodes[2]`). `skip` leaves out paths checked elsewhere.
 */
export function unstorableTextErrors(value: unknown, path = '', skip: (path: string) => boolean = () => false): FieldError[] {
  const errors: FieldError[] = [];
  const visit = (node: unknown, at: string, depth: number) => {
    if (depth > MAX_DEPTH || skip(at)) return;
    if (typeof node === 'string') {
      if (UNSTORABLE.test(node)) errors.push({ field: at || 'body', message: message(at || 'body') });
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${at}[${index}]`, depth + 1));
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        const childPath = at ? `${at}.${key}` : key;
        if (UNSTORABLE.test(key))
          errors.push({
            field: at || 'body',
            message: `${at || 'body'} has a field name that cannot be stored (NUL or an unpaired UTF-16 surrogate)`,
          });
        else visit(child, childPath, depth + 1);
      }
    }
  };
  visit(value, path, 0);
  return errors;
}
