import { ConfigurationError } from "./errors";

export type QueryValue = string | number | boolean | undefined;

const LOOPBACK_HOSTS = new Set(["localhost", "[::1]", "::1"]);

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * A URL as an error quotes it: without its user-info (`user:token@`), query and fragment (`?token=...`), which may
 * hold credentials, even when it does not parse. One anchored pass: linear whatever the text.
 */
export function quotedUrl(value: string): string {
  return value.replace(/^((?:[a-z][a-z0-9+.-]*:)?\/\/)?[^/?#]*@/i, "$1").replace(/[?#][\s\S]*$/, "");
}

/**
 * Parses a base URL. Installations serve the API under a path prefix (`https://ci.example.com/cjoc/`), with or
 * without a trailing slash: the prefix is kept and always ends with `/`, so that spec paths resolve below it.
 * Plain http is refused for remote hosts: Basic credentials and bearer tokens would cross the network in clear.
 */
export function parseBaseUrl(setting: string, value: string, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(setting, `"${quotedUrl(value)}" is not an absolute URL`, "Give it as https://host/prefix/.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ConfigurationError(setting, `unsupported protocol "${url.protocol}"`, "Use an https:// URL.");
  }
  if (url.username || url.password) {
    // Credentials in the URL would leak into every error message that names it.
    throw new ConfigurationError(setting, "the URL must not carry credentials", "Pass the username and token as options.");
  }
  if (url.protocol === "http:" && !allowInsecureHttp && !isLoopbackHost(url.hostname)) {
    throw new ConfigurationError(
      setting,
      `plain http to ${url.hostname} would send credentials in clear`,
      "Use https://, or set allowInsecureHttp: true if you accept that risk.",
    );
  }
  url.search = "";
  url.hash = "";
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

/** Resolves a spec path (no leading slash; segments already encoded) below the base URL, with its query. */
export function buildUrl(base: URL, path: string, query?: Record<string, QueryValue>): URL {
  const url = new URL(base.href);
  url.pathname = base.pathname + path.replace(/^\/+/, "");
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  return url;
}
