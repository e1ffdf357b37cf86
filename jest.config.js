/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The second tier has its own command (npm run test:pulumi, jest.pulumi.config.js): the real engine, the package
  // installed into projects outside the repository as users install it (test/package/consumer), and the examples'
  // life cycles under every reading of the emulator at once (test/readings/life-cycles; test/emulator/readings
  // probes each reading here). Both took a fifth of this suite's CPU, which went past its 150 s on a fresh clone.
  testPathIgnorePatterns: [
    "/node_modules/",
    "<rootDir>/test/real-engine/",
    "<rootDir>/test/acceptance/",
    "<rootDir>/test/package/consumer.test.ts",
    "<rootDir>/test/readings/life-cycles.test.ts",
  ],
  transform: { "^.+\\.ts$": "<rootDir>/test/esbuild-transform.js" },
  // What @pulumi/pulumi loads at start but a test file rarely uses (typescript, the Automation API, ...) is loaded at
  // its first use: each file's registry loads the SDK afresh (test/harness/deferring-resolver.js).
  resolver: "<rootDir>/test/harness/deferring-resolver.js",
  // Each test file starts its own emulator on a random loopback port. Most of a file's time is spent waiting (provider
  // hosts and program processes starting, the feature-flag service's one request per second), so four workers on two
  // cores overlap the waits: measured on a fresh clone, jest took 206 s with four against 245 s with two.
  maxWorkers: 4,
  testTimeout: 30000,
  // The provider shells' texts, serialized once for every file (test/harness/provider-texts.ts).
  globalSetup: "<rootDir>/test/global-setup.ts",
  globalTeardown: "<rootDir>/test/global-teardown.ts",
  // The longest files first, also on a fresh clone (test/sequencer.js).
  testSequencer: "<rootDir>/test/sequencer.js",
};
