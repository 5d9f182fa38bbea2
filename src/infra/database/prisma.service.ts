import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { PrismaClient } from '../../generated/prisma/client';
import { DATABASE_CONNECTION } from './database.tokens';
import type { DatabaseConnection } from './database-connection';
import type { SqlSession } from './sql-session';

/** The Prisma client of the app, on whichever driver adapter the configuration chose. */
@Injectable()
/** Closed last (onApplicationShutdown), after the scan buffer's final flush (beforeApplicationShutdown). */
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection) {
    super({ adapter: connection.adapter });
  }

  get kind() {
    return this.connection.kind;
  }

  /** Raw statements on the same database, for bulk statements with large parameters (Prisma copies and re-encodes them). */
  get sql(): SqlSession {
    return this.connection.sql;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
    await this.connection.close();
  }
}
