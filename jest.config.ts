import type { Config } from 'jest';

// One transform for every lane: swc with legacy decorators and emitted metadata, because
// inversify and class-validator read design-time types at run time.
const transform: Config['transform'] = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

// Test support lives under testing/; stand-ins, test-env and packages' test-support/ are imported by subpath.
const moduleNameMapper = {
  '^@voiceplane/test-env$': '<rootDir>/testing/test-env',
  '^@voiceplane/(test-env|stand-ins)/(.+)$': '<rootDir>/testing/$1/$2',
  '^@voiceplane/adapter-fakes$': '<rootDir>/testing/fakes/src',
  '^@voiceplane/contract-tests$': '<rootDir>/testing/contract-tests/src',
  '^@voiceplane/([a-z-]+)/test-support/(.+)$': '<rootDir>/packages/$1/test-support/$2',
  '^@voiceplane/(domain|application|composition|contract-tests|client|adapter-[a-z-]+)$': '<rootDir>/packages/$1/src',
};

const shared = {
  rootDir: __dirname,
  transform,
  moduleNameMapper,
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/testing', '<rootDir>/tools'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};

const config: Config = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: [...shared.testPathIgnorePatterns, '\\.int\\.spec\\.ts$'],
    },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['**/*.int.spec.ts'],
      globalSetup: '<rootDir>/testing/test-env/global-setup.ts',
      globalTeardown: '<rootDir>/testing/test-env/global-teardown.ts',
    },
  ],
  // Jest reads testTimeout only at the top level, not per project.
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/testing/test-env/summary-reporter.js'],
};

export default config;
