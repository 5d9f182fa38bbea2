import 'reflect-metadata';
import { type ApiKeyId, type FolderId, isUuid } from './common/ids/resource-ids';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { ConfigModule } from './app.module';
import { ApiKeysRepository } from './auth/api-keys.repository';
import { AuditLogRepository } from './audit/audit-log.repository';
import { AuditRecorder } from './audit/audit-recorder';
import { AuditTrail } from './infra/audit/audit-trail';
import { ApiKeysService, type KeyGrant, type OperatorAccount, SeveralAccountsError } from './auth/api-keys.service';
import { ConfigError, loadAppConfig } from './config/app-config';
import { CacheModule } from './infra/cache/cache.module';
import { DatabaseModule } from './infra/database/database.module';
import { EmbeddedDatabaseBusyError, lockEmbeddedDatabase } from './infra/database/embedded-database-lock';
import { RedisModule } from './infra/redis/redis.module';

const USAGE = `Usage:
  npm run cli -- keys create --name NAME [--account ACCOUNT_ID | --new-account]
                             [--scopes qrcodes:read,analytics:read] [--folders FOLDER_ID,...] [--expires-at ISO_TIME]
      without --account or --new-account: the only account when there is exactly one, a new account
      when there is none (with several accounts, name one); without --scopes every scope (*), without
      --folders every folder, without --expires-at no expiry
  npm run cli -- keys list
  npm run cli -- keys revoke KEY_ID`;

/** What `keys create` says about the account it chose. */
const ACCOUNT_CHOSEN: Record<OperatorAccount, string> = {
  given: 'the account given with --account',
  only: 'the only account: this key sees its codes',
  new: 'a new account (there was none)',
  'new-requested': 'a new account (--new-account)',
};

/** The grant flags of `keys create` (the service checks the scopes and folders themselves). */
function grantFromFlags(values: { scopes?: string; folders?: string; 'expires-at'?: string }): KeyGrant {
  const list = (value: string) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  const folders = values.folders === undefined ? undefined : list(values.folders);
  if (folders?.some((folder) => !isUuid(folder))) throw new ConfigError('--folders takes folder ids (UUIDs), separated by commas');
  const expiresAt = values['expires-at'] === undefined ? undefined : new Date(values['expires-at']);
  if (expiresAt && Number.isNaN(expiresAt.getTime())) throw new ConfigError('--expires-at takes an ISO 8601 time, e.g. 2027-06-30T00:00:00Z');
  return {
    scopes: values.scopes === undefined ? undefined : list(values.scopes),
    folderIds: folders?.map((id) => id.toLowerCase() as FolderId),
    expiresAt,
  };
}

function describeGrant(key: { scopes: readonly string[]; folderIds: readonly string[] | null; expiresAt: Date | null }): string {
  const folders = key.folderIds ? `folders ${key.folderIds.join(',')}` : 'every folder';
  return `scopes ${key.scopes.join(',')}, ${folders}, ${key.expiresAt ? `expires ${key.expiresAt.toISOString()}` : 'no expiry'}`;
}

/** Operators' key management from a shell, on the same configuration as the service. */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      'new-account': { type: 'boolean' },
      scopes: { type: 'string' },
      folders: { type: 'string' },
      'expires-at': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command, id] = positionals;
  if (values.help || group !== 'keys' || !['create', 'list', 'revoke'].includes(command)) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadAppConfig();
  // PGlite serves one process: beside a running service this would change a copy that is then lost.
  const releaseDatabase = config.databaseUrl ? null : await lockEmbeddedDatabase(config.dataDir);

  // Redis (when configured) lets a revocation reach the running instances' key caches at once.
  // Key writes are audited like the API's, with no actor (docs/api-keys-and-security.md#audit-log).
  @Module({
    imports: [ConfigModule.forRoot(config), DatabaseModule, RedisModule, CacheModule],
    providers: [ApiKeysRepository, ApiKeysService, AuditLogRepository, AuditRecorder, { provide: AuditTrail, useExisting: AuditRecorder }],
  })
  class CliModule {}

  // Should this fail, the lock still goes: it is removed when the process exits.
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const keys = app.get(ApiKeysService);
    if (command === 'create') {
      if (!values.name) throw new ConfigError('keys create needs --name NAME');
      if (values.account !== undefined && values['new-account']) throw new ConfigError('keys create takes --account or --new-account, not both');
      const choice = { accountId: values.account, newAccount: values['new-account'] };
      const { created, account } = await keys.createForOperator(values.name, choice, grantFromFlags(values));
      console.log(
        `Created key ${created.id} for account ${created.accountId}, ${ACCOUNT_CHOSEN[account]}; ${describeGrant(created)}. ` +
          `Store it now; it is not shown again:\n\n  ${created.key}\n`,
      );
    } else if (command === 'list') {
      for (const key of await keys.list()) {
        const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : `last used ${key.lastUsedAt?.toISOString() ?? 'never'}`;
        console.log(`${key.id}  ${key.prefix}…  account ${key.accountId}  "${key.name}"  ${state}  ${describeGrant(key)}`);
      }
    } else {
      if (!id || !isUuid(id)) throw new ConfigError('keys revoke needs the key id (a UUID)');
      await keys.revoke(id.toLowerCase() as ApiKeyId);
      console.log(`Revoked key ${id}`);
    }
    return 0;
  } finally {
    await app.close();
    await releaseDatabase?.();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(
      error instanceof EmbeddedDatabaseBusyError
        ? `Refused: the embedded database in ${error.dataDir} is in use by a running service. ` +
            'Stop the service first, or create keys through the admin API (ADMIN_TOKEN).'
        : error instanceof SeveralAccountsError
          ? `Refused: there are ${error.count} accounts; name one with --account ACCOUNT_ID ` +
            "(npm run cli -- keys list shows each key's account), or use --new-account"
          : error.message,
    );
    process.exit(1);
  },
);
