import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaClient } from '../../generated/prisma/client';
import type { DatabaseConnection, DatabaseKind } from './database-connection';
import type { SqlSession } from './sql-session';
import { sqlRunner } from './kysely-over-prisma';
import { retryingLostLinks } from './lost-link-retry';
import { Tables } from './tables';

export const DATABASE_CONNECTION = Symbol('DATABASE_CONNECTION');

/**
 * The app's database. Repositories build their queries with Kysely (types generated from
 * prisma/schema.prisma) on `read` or `write`, which Prisma runs, or in a `transaction`, which runs
 * raw on the same pool. Scan batches go through `scans` (COPY, outside Prisma). Reads and writes
 * use separate pools, each with its own statement timeout (DB_READ_TIMEOUT_MS, DB_WRITE_TIMEOUT_MS).
 */
@Injectable()
export class Database implements OnApplicationShutdown {
  readonly read: Tables;
  readonly write: Tables;
  private readonly readClient: PrismaClient;
  private readonly writeClient: PrismaClient;

  constructor(@Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection) {
    this.readClient = new PrismaClient({ adapter: connection.reads });
    this.writeClient = new PrismaClient({ adapter: connection.writes });
    this.read = new Tables(retryingLostLinks(this.readClient));
    this.write = new Tables(this.writeClient);
  }

  get kind(): DatabaseKind {
    return this.connection.kind;
  }

  /** Raw statements for scan batches (COPY), on their own pool. */
  get scans(): SqlSession {
    return this.connection.scans;
  }

  /**
   * Runs `work` in one write transaction: committed if it resolves, rolled back if it throws. The
   * same Kysely tables, run raw on the writes' pool rather than as a Prisma interactive transaction
   * (a fifth of the CPU per statement: docs/architecture.md#database); every statement keeps the
   * write budget (statement_timeout), and a connection is waited for at most as long.
   */
  transaction<T>(work: (tx: Tables) => Promise<T>): Promise<T> {
    return this.connection.writeTransactions.transaction((tx) => work(new Tables(sqlRunner(tx))));
  }

  /**
   * Runs `work` in one transaction on the background workers' pool (webhook delivery), apart from
   * the API's writes so that a burst of deliveries never takes their connections.
   */
  workerTransaction<T>(work: (tx: Tables) => Promise<T>): Promise<T> {
    return this.connection.workers.transaction((tx) => work(new Tables(sqlRunner(tx))));
  }

  /** Resolves when the database answers within `timeoutMs` (readiness). */
  probe(timeoutMs: number): Promise<void> {
    return this.connection.probe(timeoutMs);
  }

  /** A Prisma client of its own on the same database, for tests and scripts that inspect it; the app's code uses the tables. */
  inspectionClient(): PrismaClient {
    return new PrismaClient({ adapter: this.connection.writes });
  }

  /** Closed last (onApplicationShutdown), after the scan buffer's final store (beforeApplicationShutdown). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.readClient.$disconnect(), this.writeClient.$disconnect()]);
    await this.connection.close();
  }
}
