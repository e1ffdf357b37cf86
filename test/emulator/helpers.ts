import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import JSZip from "jszip";
import type { Credentials, Emulator } from "../../emulator";

export const REPO_BUNDLES = path.resolve(__dirname, "..", "..", "examples", "bundles");

export function basic(c: Credentials): string {
  return `Basic ${Buffer.from(`${c.username}:${c.apiToken}`).toString("base64")}`;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
  json: any;
}

/** fetch with the emulator's admin credentials unless `authorization` is given (null = no header). */
export async function call(
  emu: Emulator,
  url: string,
  init: { method?: string; body?: Buffer | string; headers?: Record<string, string>; authorization?: string | null; redirect?: "follow" | "manual" } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  const auth = init.authorization === undefined ? basic(emu.credentials.admin) : init.authorization;
  if (auth !== null) headers["authorization"] = auth;
  const res = await fetch(url, { method: init.method ?? "GET", headers, body: init.body, redirect: init.redirect });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString("utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, bytes, json };
}

export const post = (emu: Emulator, url: string, init: Parameters<typeof call>[2] = {}) => call(emu, url, { ...init, method: "POST" });

export async function makeZip(files: Record<string, string>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(files)) zip.file(name, content);
  return zip.generateAsync({ type: "nodebuffer" });
}

export async function readZip(data: Buffer): Promise<Record<string, string>> {
  const zip = await JSZip.loadAsync(data);
  const out: Record<string, string> = {};
  for (const entry of Object.values(zip.files)) if (!entry.dir) out[entry.name] = await entry.async("string");
  return out;
}

/** The repository's sample bundles as zip entries below `prefix` (e.g. "main/"). */
export function sampleBundleFiles(prefix: string, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    for (const file of fs.readdirSync(path.join(REPO_BUNDLES, name))) {
      out[`${prefix}${name}/${file}`] = fs.readFileSync(path.join(REPO_BUNDLES, name, file), "utf8");
    }
  }
  return out;
}

/** A private copy of the sample bundles that a test may change. */
export function copyBundles(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "emu-bundles-"));
  fs.cpSync(REPO_BUNDLES, dir, { recursive: true });
  return dir;
}

export const ZIP_HEADERS = { "content-type": "application/zip;charset=utf-8" };
