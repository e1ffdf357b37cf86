// The zip and YAML libraries, loaded by the first call that needs them: most provider calls (every `check`, every
// setting resource) use neither, and loading them costs about a third of the provider's load time.
import type JSZip from "jszip";

export function jszip(): typeof JSZip {
  return require("jszip");
}

export function yaml(): typeof import("yaml") {
  return require("yaml");
}
