/**
 * The emulator answers only requests addressed to a loopback name. It listens on 127.0.0.1 with published default
 * credentials, so a page of another site open in the developer's browser could otherwise drive it by DNS
 * rebinding (its own name, re-pointed at 127.0.0.1): such a request carries that site's name in `Host`.
 */

/** Whether a `Host` header names this machine's loopback (any port); a request without one (HTTP/1.0) passes. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return true;
  const value = host.trim().toLowerCase();
  const ipv6 = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(value);
  if (ipv6) return /^(?:::1|0:0:0:0:0:0:0:1|::ffff:(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|7f[0-9a-f]{2}:[0-9a-f]{1,4}))$/.test(ipv6[1]!);
  const m = /^([^:]+)(?::\d+)?$/.exec(value);
  if (!m) return false;
  const name = m[1]!.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost") || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The refusal's text: what was wrong and how to reach the emulator. */
export function notLoopbackReason(host: string): string {
  return (
    `Refused: the Host header ${JSON.stringify(host.slice(0, 100))} is not a loopback name. The emulator answers only ` +
    "requests addressed to 127.0.0.1, localhost or [::1] (a page of another site cannot reach it by DNS rebinding)."
  );
}
