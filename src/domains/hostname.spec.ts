import { hostnameOfHeader, normaliseHostname } from './hostname';

describe('normaliseHostname', () => {
  it.each([
    ['qr.example.com', 'qr.example.com'],
    ['QR.Example.COM', 'qr.example.com'],
    ['qr.example.com.', 'qr.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['ＱＲ.example.com', 'qr.example.com'],
    ['a-b.c-d.example', 'a-b.c-d.example'],
    [`${'a'.repeat(63)}.example.com`, `${'a'.repeat(63)}.example.com`],
  ])('accepts %j as %j', (input, hostname) => {
    expect(normaliseHostname(input)).toEqual({ ok: true, hostname });
  });

  it.each([
    ['', /empty/],
    ['example', /two labels/],
    ['localhost', /two labels/],
    ['qr.localhost', /localhost/],
    ['qr.example.com:443', /port/],
    ['https://qr.example.com', /port or a scheme/],
    ['qr.example.com/r', /bare hostname/],
    ['qr example.com', /bare hostname/],
    ['127.0.0.1', /IP address/],
    ['[::1]', /IP address/],
    ['::1', /IP address/],
    ['1.2.3.4.5', /number|valid/],
    ['example.123', /number|valid/],
    ['under_score.example.com', /underscores/],
    ['-lead.example.com', /hyphens/],
    ['a..example.com', /empty labels|valid/],
    [`${'a'.repeat(64)}.example.com`, /63/],
    [`${'abcdefghi.'.repeat(26)}com`, /253/],
    ['api.test', /own host/],
    [7, /string/],
  ])('refuses %j', (input, problem) => {
    const check = normaliseHostname(input, ['api.test']);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.problem).toMatch(problem);
  });
});

describe('hostnameOfHeader', () => {
  it.each([
    ['qr.example.com', 'qr.example.com'],
    ['QR.Example.com:8443', 'qr.example.com'],
    ['qr.example.com.', 'qr.example.com'],
    ['localhost:3000', null],
    ['app', null],
    ['127.0.0.1:3000', null],
    ['[::1]:3000', null],
    ['qr.example.com:x', null],
    ['qr.example.com:123456', null],
    ['qr_example.com', null],
    ['qr.example.com, evil.com', null],
    ['', null],
    [undefined, null],
    ['a'.repeat(300) + '.com', null],
  ])('reads %j as %j', (header, hostname) => {
    expect(hostnameOfHeader(header)).toBe(hostname);
  });
});
