/**
 * The real-engine tier, `npm run test:pulumi`: the test files of test/real-engine, each running the real Pulumi CLI
 * (`npm run pulumi-cli` provides it) against emulators of its own. Two workers: every step is a CLI process, a
 * language host, the program and a provider host, on two cores.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test/real-engine"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": "ts-jest" },
  maxWorkers: 2,
  testTimeout: 240000,
  globalSetup: "<rootDir>/test/real-engine/global-setup.ts",
  globalTeardown: "<rootDir>/test/global-teardown.ts",
};
