/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": "ts-jest" },
  // Each test file starts its own emulator on a random loopback port; two workers match the two cores.
  maxWorkers: 2,
  testTimeout: 30000,
};
