import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaClient } from '../../generated/prisma/client';
import { DATABASE_CONNECTION } from './database.tokens';
import type { DatabaseConnection } from './database-connection';

/** The Prisma client of the app, on whichever driver adapter the configuration chose. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(DATABASE_CONNECTION) private readonly connection: DatabaseConnection) {
    super({ adapter: connection.adapter });
  }

  get kind() {
    return this.connection.kind;
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    await this.connection.close();
  }
}
