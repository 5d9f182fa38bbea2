import type { OpenAPIObject } from '@nestjs/swagger';
import { REQUIRED_SCOPE_EXTENSION } from '../../common/auth/required-scope.decorator';
import { ALL_SCOPES, ANY_SCOPE } from '../../common/auth/scopes';
import { API_KEY_SCHEME } from '../../common/openapi/security-schemes';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Says each operation's scope where a reader looks (docs/api-keys-and-security.md#scopes): at the
 * end of its description, beside the `x-required-scope` extension the decorator writes (OpenAPI
 * 3.0 allows scope names in a security requirement only for OAuth2 and OpenID Connect schemes, not
 * for an apiKey scheme). The X-API-Key scheme's description lists every scope.
 */
export function describeRequiredScopes(document: OpenAPIObject): void {
  for (const path of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = path[method];
      const scope = (operation as Record<string, unknown> | undefined)?.[REQUIRED_SCOPE_EXTENSION] as string | undefined;
      if (!operation || !scope) continue;
      const line = `Required scope: \`${scope}\` (or \`${scope.replace(/:read$/, ':write')}\`, or \`*\`).`;
      const exact = `Required scope: \`${scope}\` (or \`*\`).`;
      operation.description = [operation.description, scope.endsWith(':read') ? line : exact].filter(Boolean).join('\n\n');
    }
  }
  const scheme = document.components?.securitySchemes?.[API_KEY_SCHEME];
  if (scheme && 'description' in scheme) {
    scheme.description =
      `${scheme.description ?? ''} Each key holds scopes: \`${ANY_SCOPE}\` (everything) or any of ` +
      `${ALL_SCOPES.map((name) => `\`${name}\``).join(', ')}; \`write\` implies \`read\`. Each operation names the scope it needs.`;
  }
}
