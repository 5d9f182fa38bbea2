/**
 * The methods each route of the app answers, by path pattern: a request the router could not
 * match is a 405 (with `Allow`) when its path is known under other methods, a 404 otherwise.
 */
export class RouteMethods {
  private readonly routes: Array<{ pattern: RegExp; methods: readonly string[] }> = [];

  /** `url` as Fastify registers it: `/api/v1/qrcodes/:id`, `/docs/*`. */
  add(methods: string | readonly string[], url: string): void {
    this.routes.push({ pattern: routePattern(url), methods: typeof methods === 'string' ? [methods] : methods });
  }

  /** The methods some route answers at `path` (no query string), HEAD wherever GET; [] for an unknown path. */
  allowedAt(path: string): string[] {
    const allowed = new Set<string>();
    for (const route of this.routes) {
      if (route.pattern.test(path)) for (const method of route.methods) allowed.add(method.toUpperCase());
    }
    if (allowed.has('GET')) allowed.add('HEAD');
    return [...allowed].sort();
  }
}

/** `/a/:id/b` → `^/a/[^/]+/b$`; `*` matches the rest of the path. */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}
