import { trustProxyHops } from './trust-proxy';

describe('trustProxyHops', () => {
  it('trusts nothing without proxies: Fastify reads the address off the socket', () => {
    expect(trustProxyHops(0)).toBe(false);
  });

  it.each([
    [1, [true, false, false]],
    [2, [true, true, false]],
  ])('with %i proxies believes exactly that many hops', (hops, expected) => {
    const trust = trustProxyHops(hops);
    expect(trust).not.toBe(false);
    expect([0, 1, 2].map((hop) => (trust as (address: string, hop: number) => boolean)('10.0.0.1', hop))).toEqual(expected);
  });
});
