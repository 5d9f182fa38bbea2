import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadAppConfig } from './config/app-config';
import { scopeTableOf, withScopeTable } from './infra/openapi/scope-table';
import { previewOpenApiDocument } from './preview-openapi';

/** Where the scope table lives. */
export const SCOPE_TABLE_DOC = resolve(__dirname, '../docs/api-keys-and-security.md');

/**
 * `npm run --silent docs:scopes`: writes the scope table of docs/api-keys-and-security.md from the
 * routes' `@RequiredScope` (src/scope-table.spec.ts fails while the docs differ). `-- --print`
 * prints the table instead.
 */
async function main(print: boolean): Promise<void> {
  const table = scopeTableOf(await previewOpenApiDocument(loadAppConfig()));
  if (print) {
    console.log(table);
    return;
  }
  writeFileSync(SCOPE_TABLE_DOC, withScopeTable(readFileSync(SCOPE_TABLE_DOC, 'utf8'), table));
  console.log(`Scope table written to ${SCOPE_TABLE_DOC}`);
}

main(process.argv.includes('--print')).catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `docs:scopes: ${error.message}`);
  process.exit(1);
});
