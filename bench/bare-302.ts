/**
 * Bare Fastify's 302 in a process of its own (the baseline of bench/gs1-resolver.ts, whose service
 * runs as the built `node dist/main.js`): listens on BARE_PORT, tells its parent it is ready.
 */
import Fastify from 'fastify';

const port = Number(process.env.BARE_PORT);
const bare = Fastify();
bare.get('/302', (_req, reply) => reply.redirect('https://example.com/target', 302));
bare.listen({ port, host: '127.0.0.1' }).then(
  () => process.send?.('ready'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
process.once('SIGTERM', () => void bare.close().then(() => process.exit(0)));
