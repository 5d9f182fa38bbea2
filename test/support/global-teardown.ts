import { rmSync } from 'node:fs';
import { serverUrl, TEMPLATE_ENV, withAdminClient } from './test-databases';

export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_ENV];
  const base = serverUrl();
  if (!template) return;
  if (!base) {
    rmSync(template, { recursive: true, force: true });
    return;
  }
  await withAdminClient(base, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    // Clones left behind by a crashed file.
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'qr\\_test\\_%'");
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
