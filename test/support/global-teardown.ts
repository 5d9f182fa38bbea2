import { rmSync } from 'node:fs';
import { RUN_PREFIX_ENV, serverUrl, TEMPLATE_ENV, withAdminClient } from './test-databases';

export default async function globalTeardown(): Promise<void> {
  const template = process.env[TEMPLATE_ENV];
  const base = serverUrl();
  if (!template) return;
  // The medium and e2e projects share the template (global-setup.ts): the first teardown removes it.
  delete process.env[TEMPLATE_ENV];
  if (!base) {
    rmSync(template, { recursive: true, force: true });
    return;
  }
  await withAdminClient(base, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    // Clones of this run left behind by a crashed file (other runs may be going on beside this one).
    const pattern = `${process.env[RUN_PREFIX_ENV]!.replace(/_/g, '\\_')}%`;
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [pattern]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
}
