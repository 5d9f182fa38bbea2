import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * `npm run openapi:types`: TypeScript types (openapi-typescript) of the document `npm run openapi`
 * wrote, for `tsc` to check the typed-client suite against before the tests run. That suite
 * generates them again through this script, in a process of its own (openapi-typescript's
 * dependencies are ES modules, which jest's loader cannot require), from the live /docs-json,
 * and fails if they differ.
 * Arguments: the document (default openapi.json), the output (default test/generated/openapi-types.ts).
 */
async function main(documentFile = 'openapi.json', outputFile = join(__dirname, '..', 'generated', 'openapi-types.ts')): Promise<void> {
  const document = JSON.parse(readFileSync(documentFile, 'utf8')) as OpenAPI3;
  // A field with a default may be left out of a request: keep it optional (the option would make it required).
  const types = astToString(await openapiTS(document, { defaultNonNullable: false }));
  mkdirSync(dirname(outputFile), { recursive: true });
  writeFileSync(outputFile, `// Generated from the OpenAPI document by \`npm run openapi:types\`; do not edit.\n${types}`);
  console.log(`OpenAPI types written to ${outputFile}`);
}

main(process.argv[2], process.argv[3]).catch((error: Error) => {
  console.error(`openapi:types: ${error.message}`);
  process.exit(1);
});
