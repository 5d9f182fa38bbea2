/**
 * What an API key may do (docs/api-keys-and-security.md#scopes): `<resource>:<read|write>` per
 * resource, or `*` for everything. `write` implies `read` of the same resource. Pure: the guard,
 * the key services and the OpenAPI document all read these rules.
 */
export const SCOPE_RESOURCES = ['qrcodes', 'folders', 'analytics', 'webhooks', 'keys', 'audit', 'domains', 'exports', 'imports', 'gs1'] as const;
export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type ScopeAccess = 'read' | 'write';
export type Scope = `${ScopeResource}:${ScopeAccess}`;
export type GrantedScope = Scope | '*';

export const ALL_SCOPES: readonly Scope[] = SCOPE_RESOURCES.flatMap((resource) => [`${resource}:read`, `${resource}:write`] as const);
export const ANY_SCOPE = '*';

export function isGrantedScope(value: unknown): value is GrantedScope {
  return value === ANY_SCOPE || (typeof value === 'string' && (ALL_SCOPES as readonly string[]).includes(value));
}

/** Whether scopes held allow `needed` (`*` allows all; `x:write` allows `x:read`). */
export function allows(held: readonly GrantedScope[], needed: Scope): boolean {
  if (held.includes(ANY_SCOPE) || held.includes(needed)) return true;
  const [resource, access] = needed.split(':') as [ScopeResource, ScopeAccess];
  return access === 'read' && held.includes(`${resource}:write`);
}

/** Every concrete scope that `held` allows, in a fixed order. */
export function expandScopes(held: readonly GrantedScope[]): Scope[] {
  return ALL_SCOPES.filter((scope) => allows(held, scope));
}

/** Scopes of `wanted` that `held` does not allow (what a key may not grant). */
export function scopesBeyond(held: readonly GrantedScope[], wanted: readonly GrantedScope[]): GrantedScope[] {
  return wanted.filter((scope) => (scope === ANY_SCOPE ? expandScopes(held).length < ALL_SCOPES.length : !allows(held, scope)));
}
