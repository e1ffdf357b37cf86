// Libraries loaded by the first call that needs them, not when the provider loads: a `check` sends nothing and reads
// no zip or YAML, and these are most of the provider's load time (undici alone about a third).
import type JSZip from "jszip";

export function jszip(): typeof JSZip {
  return require("jszip");
}

export function yaml(): typeof import("yaml") {
  return require("yaml");
}

export function undici(): typeof import("undici") {
  return require("undici");
}
