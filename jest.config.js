// Tests are compiled with the code (tsc -b) and run as native ESM: NestJS 12 ships only ESM,
// which Jest loads only in its ESM mode. Running the built JS also tests exactly what ships.
const common = {
  testEnvironment: 'node',
  transform: {},
  rootDir: import.meta.dirname,
  modulePathIgnorePatterns: ['<rootDir>/node_modules/', '<rootDir>/.turbo/'],
};

export default {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,apps,clients}/*/dist/**/*.spec.js'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,apps,clients}/*/dist/**/*.int-spec.js'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{libs,apps,clients}/*/dist/**/*.e2e-spec.js'],
      globalSetup: '<rootDir>/libs/testing/dist/src/e2e.global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/dist/src/e2e.global-teardown.js',
    },
  ],
  testTimeout: 30_000,
  // Test files run one at a time in a worker process that is replaced once its heap passes this
  // size. Without it Jest runs everything in its own process (one worker on 2 cores), where the
  // ES-module registries of earlier files pile up: late files ran 10-50× slower (a 2 s unit file
  // took 63 s), and the suite took 30 minutes instead of 14.
  workerIdleMemoryLimit: '600MB',
  reporters: ['default', '<rootDir>/libs/testing/dist/src/summary.reporter.js'],
};
