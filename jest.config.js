/** Unit tests sit beside the code; integration tests of each service run in its test/ against real PostgreSQL and Kafka. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
  },
];
const moduleNameMapper = {
  '^@caravan/contracts$': '<rootDir>/libs/contracts/src/index.ts',
  '^@caravan/service-kit$': '<rootDir>/libs/service-kit/src/index.ts',
};
module.exports = {
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/libs/*/src/**/*.test.ts', '<rootDir>/{svc-*,gateway}/src/**/*.test.ts'],
      transform: { '^.+\\.tsx?$': swc },
      moduleNameMapper,
      testEnvironment: 'node',
    },
    {
      displayName: 'integration',
      rootDir: __dirname,
      testMatch: ['<rootDir>/{svc-*,gateway,libs/service-kit}/test/**/*.test.ts'],
      transform: { '^.+\\.tsx?$': swc },
      moduleNameMapper,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/deploy/local/jest-global-setup.js',
      globalTeardown: '<rootDir>/deploy/local/jest-global-teardown.js',
      setupFilesAfterEnv: ['<rootDir>/deploy/local/jest-integration-setup.js'],
    },
  ],
};
