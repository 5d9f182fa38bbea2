import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { PrefixRouter } from './prefix-router';

describe('PrefixRouter', () => {
  const served: string[] = [];
  const listener =
    (name: string): RequestListener =>
    (request) =>
      void served.push(`${name} ${request.url}`);
  const request = (router: PrefixRouter, url: string) => {
    const server = router.serverFor(listener('main'));
    server.emit('request', { url } as IncomingMessage, {} as ServerResponse);
  };
  beforeEach(() => (served.length = 0));

  it.each([
    ['/r/abc', 'redirect /r/abc'],
    ['/r/', 'redirect /r/'],
    ['/r', 'main /r'],
    ['/api/v1/qrcodes', 'main /api/v1/qrcodes'],
    ['/rx/abc', 'main /rx/abc'],
  ])('sends %s to %s', (url, expected) => {
    const router = new PrefixRouter();
    router.mount('/r/', listener('redirect'));
    request(router, url);
    expect(served).toEqual([expected]);
  });

  it('sends everything to the main listener once unmounted (the app is closing)', () => {
    const router = new PrefixRouter();
    router.mount('/r/', listener('redirect'));
    router.unmountAll();
    request(router, '/r/abc');
    expect(served).toEqual(['main /r/abc']);
  });
});
