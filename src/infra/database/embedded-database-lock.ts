import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { lock } from 'proper-lockfile';

/**
 * One process at a time on the embedded database. PGlite keeps the database in the memory of the
 * process that opened it and writes it back to DATA_DIR: a second process (the CLI beside a running
 * service) would work on a copy whose writes are lost, or crash PGlite. The service and the CLI
 * hold a lock on DATA_DIR while they use it (proper-lockfile: a directory whose mtime the holder
 * refreshes; removed at exit, and taken over once stale, after a crash).
 */
export class EmbeddedDatabaseBusyError extends Error {
  constructor(readonly dataDir: string) {
    super(`The embedded database in ${dataDir} is in use by another process (a running service?)`);
  }
}

export interface EmbeddedDatabaseLockOptions {
  /** How long to wait for the lock before giving up (a service restarting after a crash waits out the stale lock). */
  waitMs?: number;
  /** Called if the lock is lost while held (its directory removed or not refreshed in time). */
  onLost?: (error: Error) => void;
}

/** A lock not refreshed for this long belongs to a process that is gone. */
const STALE_MS = 10_000;
const LOCK_NAME = 'process.lock';

/** Takes the lock on the embedded database in `dataDir`; resolves to its release. */
export async function lockEmbeddedDatabase(dataDir: string, options: EmbeddedDatabaseLockOptions = {}): Promise<() => Promise<void>> {
  const directory = resolve(dataDir);
  mkdirSync(directory, { recursive: true });
  const waitMs = options.waitMs ?? 0;
  try {
    return await lock(directory, {
      lockfilePath: join(directory, LOCK_NAME),
      stale: STALE_MS,
      retries: waitMs > 0 ? { retries: Math.ceil(waitMs / 500), minTimeout: 500, maxTimeout: 500, factor: 1 } : 0,
      onCompromised: options.onLost ?? ((error: Error) => console.error(`Lock on ${directory} lost: ${error.message}`)),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw new EmbeddedDatabaseBusyError(dataDir);
    throw error;
  }
}
