import { Global, Logger, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { connectPostgres, openEmbedded } from './database-connection';
import { Database, DATABASE_CONNECTION } from './database.service';

@Global()
@Module({
  providers: [
    {
      provide: DATABASE_CONNECTION,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const logger = new Logger('Database');
        if (config.databaseUrl) return connectPostgres(config.databaseUrl, config.database, (reason) => logger.warn(reason));
        const embedded = await openEmbedded(config.embeddedDatabaseDir);
        const applied = embedded.applied.length ? `; applied migrations: ${embedded.applied.join(', ')}` : '';
        logger.log(`Embedded PGlite database in ${config.embeddedDatabaseDir}${applied}`);
        return embedded;
      },
    },
    Database,
  ],
  exports: [Database],
})
export class DatabaseModule {}
