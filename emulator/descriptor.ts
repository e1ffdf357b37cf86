// bundle.yaml reading and its rules live in the provider's bundle toolkit, so that the emulator and lintBundle
// judge bundles alike.
export * from "../provider/bundle/descriptor";
