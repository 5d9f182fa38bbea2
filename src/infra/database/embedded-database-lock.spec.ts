import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabaseBusyError, lockEmbeddedDatabase } from './embedded-database-lock';

describe('lockEmbeddedDatabase', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'qr-lock-')), 'data');
  });
  afterEach(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

  it('creates the data directory and holds the lock until released', async () => {
    const release = await lockEmbeddedDatabase(dataDir);
    expect(existsSync(join(dataDir, 'process.lock'))).toBe(true);
    await release();
    expect(existsSync(join(dataDir, 'process.lock'))).toBe(false);
  });

  it('refuses a second holder at once, naming the directory', async () => {
    const release = await lockEmbeddedDatabase(dataDir);
    try {
      await expect(lockEmbeddedDatabase(dataDir)).rejects.toThrow(EmbeddedDatabaseBusyError);
      await expect(lockEmbeddedDatabase(dataDir)).rejects.toThrow(`The embedded database in ${dataDir} is in use`);
    } finally {
      await release();
    }
    const again = await lockEmbeddedDatabase(dataDir);
    await again();
  });

  it('waits for the holder when asked to', async () => {
    const release = await lockEmbeddedDatabase(dataDir);
    const waiting = lockEmbeddedDatabase(dataDir, { waitMs: 5000 });
    setTimeout(() => void release(), 300);
    const second = await waiting;
    await second();
  });

  it('takes over a lock left behind by a process that is gone (not refreshed for 10 s)', async () => {
    await mkdir(join(dataDir, 'process.lock'), { recursive: true });
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(join(dataDir, 'process.lock'), longAgo, longAgo);
    const release = await lockEmbeddedDatabase(dataDir);
    await release();
  });

  it('does not take over a fresh lock of another process', async () => {
    await mkdir(join(dataDir, 'process.lock'), { recursive: true });
    await expect(lockEmbeddedDatabase(dataDir)).rejects.toThrow(EmbeddedDatabaseBusyError);
  });
});
