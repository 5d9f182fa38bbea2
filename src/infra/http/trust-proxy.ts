/**
 * Fastify's trustProxy for a number of proxy hops in front of the service (TRUST_PROXY): whose
 * X-Forwarded-For is believed. A hop count must be a function (Fastify fails closed on a number),
 * and none is `false`: Fastify then reads the client's address off the socket, without the
 * trusted-proxy request class and its header parsing on every request.
 */
export function trustProxyHops(hops: number): false | ((address: string, hop: number) => boolean) {
  return hops > 0 ? (_address, hop) => hop < hops : false;
}
