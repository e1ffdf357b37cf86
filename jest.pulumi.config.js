/**
 * The real-engine tier, `npm run test:pulumi`: the test files of test/real-engine, each running the real Pulumi CLI
 * (`npm run pulumi-cli` provides it) against emulators of its own; and the engine stand-in's own tests
 * (test/testing/engine-*.test.ts, which `npm test` runs on the stand-in), here on the real CLI (the global setup sets
 * PULUMI_CLOUDBEES_TEST_ENGINE=pulumi): what they expect of the engine holds for both; and the package test
 * (test/package/consumer.test.ts: npm pack installed into projects outside the repository, offline, type-checked under
 * Pulumi's template settings and run) and the examples' life cycles under every reading of the emulator at once
 * (test/readings/life-cycles.test.ts, on the engine stand-in), a fifth of `npm test`'s CPU before they moved here.
 * Two workers: every step is a CLI process, a language host, the program and a provider host, on two cores.
 * @type {import('jest').Config}
 */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: [
    "<rootDir>/test/real-engine/**/*.test.ts",
    "<rootDir>/test/testing/engine-{diffs,steps,options}.test.ts",
    "<rootDir>/test/package/consumer.test.ts",
    "<rootDir>/test/readings/life-cycles.test.ts",
  ],
  transform: { "^.+\\.ts$": "<rootDir>/test/esbuild-transform.js" },
  // As npm test's: what @pulumi/pulumi loads at start but a file rarely uses is loaded at its first use.
  resolver: "<rootDir>/test/harness/deferring-resolver.js",
  maxWorkers: 2,
  testTimeout: 240000,
  globalSetup: "<rootDir>/test/real-engine/global-setup.ts",
  globalTeardown: "<rootDir>/test/global-teardown.ts",
  // The longest files first, also on a fresh clone (test/sequencer-pulumi.js).
  testSequencer: "<rootDir>/test/sequencer-pulumi.js",
};
