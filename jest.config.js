/** Unit tests sit beside the code (components' *.test.tsx run in jsdom, project 'web'); integration tests of each service run in its test/ against real PostgreSQL and Kafka. */
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
/** Components: jsdom and Testing Library; styles are the bundler's business, not the test's. */
const webModuleNameMapper = {
  ...moduleNameMapper,
  '^@caravan/ui-kit$': '<rootDir>/libs/ui-kit/src/index.ts',
  '^@caravan/ui-kit/testing$': '<rootDir>/libs/ui-kit/src/testing.tsx',
  '\\.css$': '<rootDir>/deploy/local/jest-web-style.js',
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
      displayName: 'web',
      rootDir: __dirname,
      testMatch: ['<rootDir>/{libs/ui-kit,shell,mf-*}/src/**/*.test.tsx'],
      transform: { '^.+\\.tsx?$': swc },
      moduleNameMapper: webModuleNameMapper,
      testEnvironment: '<rootDir>/deploy/local/jest-web-environment.js',
      setupFilesAfterEnv: ['<rootDir>/deploy/local/jest-web-setup.js'],
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
