/**
 * `npm run test:acceptance`: the acceptance runs that are too long for the real-engine tier and prove nothing its files
 * do not already prove on a smaller scale (test/acceptance; today issue 53's estate of 20 stacks under the real CLI,
 * about four minutes and 420 CPU-s on the 2-core machine). On demand, with the tier's setup: `npm run pulumi-cli` first.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["<rootDir>/test/acceptance/**/*.test.ts"],
  transform: { "^.+\\.ts$": "<rootDir>/test/esbuild-transform.js" },
  resolver: "<rootDir>/test/harness/deferring-resolver.js",
  maxWorkers: 1,
  testTimeout: 900000,
  globalSetup: "<rootDir>/test/real-engine/global-setup.ts",
  globalTeardown: "<rootDir>/test/global-teardown.ts",
};
