/** Unit specs live beside the code; e2e specs boot the real app on a real PostgreSQL. */
// ts-jest only transpiles here (tsconfig.json sets isolatedModules, which ts-jest 29.4 follows), so
// tests never type-checked; `npm run lint` does, with tsc over src/, test/ and bench/.
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json' }];

/** The projects of test/<name>/ boot the real app too, on one migrated database per run (global-setup.ts). */
const databaseProject = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  rootDir: '.',
  testMatch: [`<rootDir>/test/${name}/**/*.e2e-spec.ts`],
  transform: { '^.+\\.ts$': tsJest },
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
      transform: { '^.+\\.ts$': tsJest },
    },
    // Services on a real database, one folder per context: the suites CI runs a second time on
    // the PostgreSQL server of DATABASE_URL.
    databaseProject('medium'),
    // Whole processes, start-up and shutdown, memory, protocol abuse and the deployment files.
    databaseProject('e2e'),
    // The console (its pages in Chromium, its typed client, its preview) and the unsubscribe page.
    databaseProject('browser'),
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
  // Test files run one after another in a child process that is replaced once it holds more than
  // this after a file. Without it, jest runs everything in its own process on a 2-core machine;
  // there, what 135 files leave behind (3.9 GB, module registries and the timers of closed apps'
  // libraries) slowed the last files until an app's boot took over 30 s.
  workerIdleMemoryLimit: '1GB',
};
