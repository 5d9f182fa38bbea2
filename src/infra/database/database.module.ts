import { Global, Logger, Module } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { connectPostgres, openEmbedded } from './database-connection';
import { DATABASE_CONNECTION } from './database.tokens';
import { PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    {
      provide: DATABASE_CONNECTION,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        if (config.databaseUrl) return connectPostgres(config.databaseUrl);
        const embedded = await openEmbedded(config.dataDir);
        const logger = new Logger('Database');
        logger.log(`Embedded PGlite database in ${config.dataDir}${embedded.applied.length ? `; applied migrations: ${embedded.applied.join(', ')}` : ''}`);
        return embedded;
      },
    },
    PrismaService,
  ],
  exports: [PrismaService],
})
export class DatabaseModule {}
