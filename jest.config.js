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
/**
 * The OTLP exporter loads node:http with a dynamic import(), which jest's CommonJS runtime refuses without
 * --experimental-vm-modules: that one package is compiled to require() like our sources (docs/adr/0033).
 */
const OTLP_EXPORTER_JS = 'node_modules/@opentelemetry/otlp-exporter-base/.+\\.js$';
const nodeTransform = { '^.+\\.tsx?$': swc, [OTLP_EXPORTER_JS]: swc };
const transformIgnorePatterns = ['/node_modules/(?!@opentelemetry/otlp-exporter-base/)'];
/** Components: jsdom and Testing Library; styles are the bundler's business, not the test's. */
const webModuleNameMapper = {
  ...moduleNameMapper,
  '^@caravan/slots$': '<rootDir>/libs/slots/src/index.ts',
  '^@caravan/ui-kit$': '<rootDir>/libs/ui-kit/src/index.ts',
  '^@caravan/ui-kit/testing$': '<rootDir>/libs/ui-kit/src/testing.tsx',
  '\\.css$': '<rootDir>/deploy/local/jest-web-style.js',
};
/** `npm test` counts the tests of the lerna-scoped runs (ADR 0034) through this reporter. */
const counted = process.env.CARAVAN_TEST_COUNTS
  ? { reporters: ['default', `${__dirname}/deploy/local/jest-counts.js`] }
  : {};
module.exports = {
  ...counted,
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: [
        '<rootDir>/libs/*/src/**/*.test.ts',
        '<rootDir>/libs/mf-kit/*.test.ts',
        '<rootDir>/{svc-*,gateway}/src/**/*.test.ts',
        '<rootDir>/deploy/k8s/check/manifests.test.ts',
        '<rootDir>/deploy/grafana/*.test.ts',
      ],
      transform: nodeTransform,
      transformIgnorePatterns,
      moduleNameMapper,
      testEnvironment: 'node',
    },
    {
      displayName: 'web',
      rootDir: __dirname,
      testMatch: ['<rootDir>/{libs/ui-kit,libs/slots,shell,mf-*}/src/**/*.test.tsx'],
      transform: { '^.+\\.tsx?$': swc },
      moduleNameMapper: webModuleNameMapper,
      testEnvironment: '<rootDir>/deploy/local/jest-web-environment.js',
      setupFilesAfterEnv: ['<rootDir>/deploy/local/jest-web-setup.js'],
    },
    {
      displayName: 'integration',
      rootDir: __dirname,
      testMatch: [
        '<rootDir>/{svc-*,gateway,libs/service-kit}/test/**/*.test.ts',
        '<rootDir>/deploy/k8s/check/run-locally.test.ts',
        '<rootDir>/deploy/local/release.test.ts',
      ],
      transform: nodeTransform,
      transformIgnorePatterns,
      moduleNameMapper,
      testEnvironment: 'node',
      globalSetup: '<rootDir>/deploy/local/jest-global-setup.js',
      globalTeardown: '<rootDir>/deploy/local/jest-global-teardown.js',
      setupFilesAfterEnv: ['<rootDir>/deploy/local/jest-integration-setup.js'],
    },
  ],
};
