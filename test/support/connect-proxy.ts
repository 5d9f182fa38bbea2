import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

/**
 * An HTTP CONNECT proxy on a loopback port that sends every tunnel for the given hostnames to one
 * local port (Caddy's HTTPS port), whatever port the client asked for, and refuses the rest. With
 * it, clients that resolve names themselves (Chromium, PHP's curl and streams) reach
 * `https://gs1.brand.example/` on this machine without DNS or /etc/hosts.
 */
export async function startConnectProxy(hostnames: readonly string[], targetPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request, client: Socket) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const host = (request.url ?? '').replace(/:\d+$/, '');
    if (!hostnames.includes(host)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
