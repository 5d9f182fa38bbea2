// Four tiers (docs/testing.md), `npm run test:<tier>` each, all of them in `npm test`:
// - unit: pure logic beside the code (src/**/*.spec.ts), no database, no decoder;
// - decode: every spec that rasterises a rendered image and reads it back with the QR decoders
//   (src/**/*.decode-spec.ts); a sample of the full matrices unless DECODE_FULL=1 (bench/ runs them whole);
// - medium: repositories and services against a real database without HTTP (src/**/*.medium-spec.ts);
// - e2e: the real HTTP server against real PostgreSQL and Redis (test/**/*.e2e-spec.ts).
// medium and e2e files each get their own database cloned from a migrated template (test/support/global-setup.ts).
// PGlite's CommonJS build loads Node builtins with `await import('fs')`, which jest's sandbox only
// allows under --experimental-vm-modules: compiling it turns those into require() calls, so the
// embedded database works in test files without DATABASE_URL.
const transform = { '^.+\\.(t|j)s$': ['@swc/jest'], '/@electric-sql/pglite/dist/.+\\.cjs$': ['@swc/jest'] };
// PGlite's CommonJS build (above) is compiled; everything else in node_modules is loaded as it is.
const transformIgnorePatterns = ['/node_modules/(?!@electric-sql/pglite/)'];
const common = { testEnvironment: 'node', transform, transformIgnorePatterns };
const databases = { globalSetup: '<rootDir>/test/support/global-setup.ts', globalTeardown: '<rootDir>/test/support/global-teardown.ts' };

module.exports = {
  testTimeout: 30000,
  // A guard rail beside the fixes (docs/testing.md#memory): a jest worker whose heap passed 300 MB after a file is
  // replaced before the next. Each e2e file's app and module registry stay reachable after the file (about 50 MB of heap,
  // and on the embedded database its PGlite's WebAssembly memory, about 300 MB, which the heap limit does not see).
  workerIdleMemoryLimit: '300MB',
  projects: [
    { displayName: 'unit', ...common, testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { displayName: 'decode', ...common, testMatch: ['<rootDir>/src/**/*.decode-spec.ts'] },
    { displayName: 'medium', ...common, ...databases, testMatch: ['<rootDir>/src/**/*.medium-spec.ts'] },
    { displayName: 'e2e', ...common, ...databases, testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
