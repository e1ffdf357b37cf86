// Functions a program (or any script) calls to read, validate and export through both APIs. Filled in by issue 4.
export {};
