import { RouteMethods } from './route-methods';

describe('RouteMethods', () => {
  const routes = new RouteMethods();
  routes.add('GET', '/api/v1/qrcodes');
  routes.add('POST', '/api/v1/qrcodes');
  routes.add(['GET', 'HEAD'], '/api/v1/qrcodes/:id');
  routes.add('PUT', '/api/v1/qrcodes/:id');
  routes.add('DELETE', '/api/v1/qrcodes/:id');
  routes.add('GET', '/api/v1/qrcodes/:id/image');
  routes.add('GET', '/docs/*');

  it.each([
    ['/api/v1/qrcodes', ['GET', 'HEAD', 'POST']],
    ['/api/v1/qrcodes/0d3c', ['DELETE', 'GET', 'HEAD', 'PUT']],
    ['/api/v1/qrcodes/0d3c/image', ['GET', 'HEAD']],
    ['/docs/swagger-ui.css', ['GET', 'HEAD']],
    ['/api/v1/qrcodes/0d3c/unknown', []],
    ['/api/v1/qrcodes/', []],
    ['/api/v1/qrcodesX', []],
    ['/api/v1', []],
  ])('%s answers %j', (path, methods) => {
    expect(routes.allowedAt(path)).toEqual(methods);
  });

  it('takes a pattern literally apart from its parameters', () => {
    const dotted = new RouteMethods();
    dotted.add('GET', '/metrics.json');
    expect(dotted.allowedAt('/metrics.json')).toEqual(['GET', 'HEAD']);
    expect(dotted.allowedAt('/metricsXjson')).toEqual([]);
  });
});
