import { defineConfig } from 'prisma/config';

// The datasource URL only matters to Prisma's own CLI (migrate deploy/status on machines that
// have the native schema engine); the application builds its client from a driver adapter.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/postgres' },
});
