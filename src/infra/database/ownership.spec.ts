import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * Ownership by construction (docs/data-model.md): queries live in repositories, reach owned rows
 * through `forAccount(accountId)`, and the cross-account view `anyAccount` is used only where a
 * lookup is by an identifier that is itself the credential or the public name, or by system work.
 */
const SRC = join(__dirname, '../..');

/** Files that may use `anyAccount`, and why. */
const ANY_ACCOUNT: Record<string, string> = {
  'infra/database/tables.ts': 'defines it',
  'auth/api-keys.repository.ts': 'a key is looked up by its hash before any account is known; the admin API manages every account',
  'smart-links/links.repository.ts': 'a scan names a code by its public short code alone',
  'qrcodes/qr-codes.repository.ts':
    'whether a chosen short code is taken on its host asks about a public name across accounts (taken or free, nothing more)',
  'gs1/items/gs1-items.repository.ts': 'the resolver finds an item by its Digital Link URI (host and key path), a public name, whoever holds it',
  'domains/domains.repository.ts':
    'who holds a hostname is public (one verified holder, the domain a request names); the daily re-check of served domains is system work',
  'infra/idempotency/idempotency.repository.ts': 'the hourly sweep of expired keys is system work over every account',
  'audit/audit-log.repository.ts': 'the retention sweep of old entries is system work over every account',
  'analytics/clickhouse/clickhouse-export-outbox.repository.ts':
    "the ClickHouse export reads back the stored rows of the batches it claimed, of every account, with their codes' accounts",
  'analytics/retention/scan-retention.repository.ts':
    'scan retention is system work over every account: codes with a retention of their own, rollups past the window',
  'infra/jobs/job-queue.repository.ts': 'the job worker fails jobs of every account claimed too often (the claim is the one leased claim)',
  'infra/jobs/leased-queue.repository.ts':
    "the job runner's one claim, release, sweep and depth, over the queue tables of every account (system work: docs/architecture.md#jobs)",
  'share/image-links.repository.ts': "a public image URL names its link by a token alone, checked against the link's account's secret",
  'share/share-links.repository.ts': 'a public stats page names its link by a signed token alone (checked before the lookup)',
  'webhooks/delivery/delivery-queue.repository.ts':
    'the delivery worker reads the endpoints and bodies of the deliveries it claimed, of every account, and records their attempts',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !/[.-]spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

const files = sourceFiles(SRC).map((file) => ({ path: relative(SRC, file).split(sep).join('/'), text: readFileSync(file, 'utf8') }));

describe('ownership of rows', () => {
  it('uses the cross-account view only where the list above says why', () => {
    const users = files.filter((file) => /\.anyAccount\b/.test(file.text)).map((file) => file.path);
    expect(users.sort()).toEqual(Object.keys(ANY_ACCOUNT).sort());
  });

  it('builds queries only in repositories (and the database module): services run transactions, not SQL', () => {
    const querying = files
      .filter((file) =>
        /\b(read|write|tx)\.(forAccount|shared|anyAccount)\b|\.selectFrom\(|\.insertInto\(|\.updateTable\(|\.deleteFrom\(|\bsql`/.test(file.text),
      )
      .map((file) => file.path)
      .filter((path) => !path.endsWith('.repository.ts') && !path.startsWith('infra/database/'));
    expect(querying).toEqual([]);
  });
});
