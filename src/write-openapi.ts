import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadAppConfig } from './config/app-config';
import { previewOpenApiDocument } from './preview-openapi';

/**
 * `npm run openapi [-- FILE]`: writes the OpenAPI document (default `openapi.json`) for integrators
 * who generate clients without running the service. The app is built in Nest's preview mode, which
 * reads the routes without creating any provider, so no database or Redis is touched; `servers`
 * follow BASE_URL and REDIRECT_URL as at run time.
 */
async function main(file = 'openapi.json'): Promise<void> {
  const path = resolve(file);
  writeFileSync(path, `${JSON.stringify(await previewOpenApiDocument(loadAppConfig()), null, 2)}\n`);
  console.log(`OpenAPI document written to ${path}`);
}

main(process.argv[2]).catch((error: Error) => {
  console.error(error instanceof ConfigError ? error.message : `openapi: ${error.message}`);
  process.exit(1);
});
