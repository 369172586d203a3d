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

const moduleNameMapper = {
  '^@voiceplane/test-env$': '<rootDir>/tools/test-env',
  '^@voiceplane/(domain|application|composition|contract-tests|client|adapter-[a-z-]+)$': '<rootDir>/packages/$1/src',
};

const shared = {
  rootDir: __dirname,
  transform,
  moduleNameMapper,
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/apps', '<rootDir>/tools'],
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
      globalSetup: '<rootDir>/tools/test-env/global-setup.ts',
      globalTeardown: '<rootDir>/tools/test-env/global-teardown.ts',
    },
  ],
  // Jest reads testTimeout only at the top level, not per project.
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/tools/test-env/summary-reporter.js'],
};

export default config;
