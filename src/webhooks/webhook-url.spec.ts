import { urlError } from './webhook-url';

const strict = { allowHttp: false, allowPrivate: false };

describe('urlError', () => {
  it.each([['https://example.com/hooks'], ['https://hooks.example.com:8443/a?b=c'], ['https://93.184.216.34/x'], ['https://localhost/hook']])(
    'accepts %s',
    (url) => {
      expect(urlError(url, strict)).toBeNull();
    },
  );

  it.each([
    ['not a url', /absolute URL/],
    ['http://example.com/hooks', /https \(http is accepted only when the server sets WEBHOOK_ALLOW_HTTP=1\)/],
    ['ftp://example.com/', /https/],
    ['javascript:alert(1)', /https/],
    ['https://user:pw@example.com/', /user name or password/],
    ['https://example.com/#x', /fragment/],
    ['https://127.0.0.1/hook', /127\.0\.0\.1 is a loopback address/],
    ['https://[::1]/hook', /::1 is a loopback address/],
    ['https://[::ffff:10.0.0.1]/hook', /private/],
    ['https://0x7f.1/hook', /127\.0\.0\.1 is a loopback address/],
    ['https://169.254.169.254/latest/meta-data', /cloud metadata/],
    [`https://example.com/${'a'.repeat(2048)}`, /at most 2048/],
  ])('refuses %s', (url, message) => {
    const error = urlError(url, strict);
    expect(error?.field).toBe('url');
    expect(error?.message).toMatch(message);
  });

  it('accepts http and private addresses when the deployment allows them', () => {
    expect(urlError('http://127.0.0.1:8080/hook', { allowHttp: true, allowPrivate: true })).toBeNull();
    expect(urlError('http://127.0.0.1:8080/hook', { allowHttp: true, allowPrivate: false })?.message).toMatch(/loopback/);
  });
});
