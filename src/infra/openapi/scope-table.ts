import type { OpenAPIObject } from '@nestjs/swagger';
import { REQUIRED_SCOPE_EXTENSION } from '../../common/auth/required-scope.decorator';
import { ALL_SCOPES } from '../../common/auth/scopes';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The lines around the generated table in docs/api-keys-and-security.md (`npm run --silent docs:scopes` rewrites what is between). */
export const SCOPE_TABLE_START = '<!-- scope-table: generated from the routes by `npm run --silent docs:scopes`; do not edit by hand -->';
export const SCOPE_TABLE_END = '<!-- scope-table end -->';

/**
 * The scope table of the docs (docs/api-keys-and-security.md#scopes), from the OpenAPI document's
 * `x-required-scope` of each operation, which `@RequiredScope` writes beside the route: one row per
 * scope (in the order of ALL_SCOPES), its operations by path, then method. A scope no route needs
 * says so. Pure: the spec compares it with the docs, the script writes it there.
 */
export function scopeTableOf(document: OpenAPIObject): string {
  const routes = new Map<string, string[]>(ALL_SCOPES.map((scope) => [scope, []]));
  for (const path of Object.keys(document.paths).sort()) {
    for (const method of METHODS) {
      const operation = document.paths[path][method] as Record<string, unknown> | undefined;
      const scope = operation?.[REQUIRED_SCOPE_EXTENSION] as string | undefined;
      if (!scope) continue;
      const list = routes.get(scope);
      if (!list) throw new Error(`${method.toUpperCase()} ${path} declares an unknown scope ${scope}`);
      list.push(`\`${method.toUpperCase()} ${path}\``);
    }
  }
  const rows = [...routes].map(([scope, list]) => `| \`${scope}\` | ${list.length ? list.join(', ') : 'no route yet'} |`);
  return ['| scope | routes |', '|---|---|', ...rows].join('\n');
}

/** The markdown with the text between the markers replaced by `table`; throws when the markers are missing. */
export function withScopeTable(markdown: string, table: string): string {
  const start = markdown.indexOf(SCOPE_TABLE_START);
  const end = markdown.indexOf(SCOPE_TABLE_END);
  if (start < 0 || end < start) throw new Error(`the scope table's markers are missing: ${SCOPE_TABLE_START} … ${SCOPE_TABLE_END}`);
  return `${markdown.slice(0, start + SCOPE_TABLE_START.length)}\n${table}\n${markdown.slice(end)}`;
}
