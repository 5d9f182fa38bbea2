// Two projects: `unit` for pure logic beside the code (src/**/*.spec.ts), `e2e` for the real HTTP
// server against real PostgreSQL and Redis (test/**/*.e2e-spec.ts). Each e2e file gets its own
// database cloned from a migrated template (test/support/global-setup.ts).
// PGlite's CommonJS build loads Node builtins with `await import('fs')`, which jest's sandbox only
// allows under --experimental-vm-modules: compiling it turns those into require() calls, so the
// embedded database works in e2e files without DATABASE_URL.
const transform = { '^.+\\.(t|j)s$': ['@swc/jest'], '/@electric-sql/pglite/dist/.+\\.cjs$': ['@swc/jest'] };
// PGlite's CommonJS build (above) is compiled; everything else in node_modules is loaded as it is.
const transformIgnorePatterns = ['/node_modules/(?!@electric-sql/pglite/)'];

module.exports = {
  testTimeout: 30000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
