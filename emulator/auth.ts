import { timingSafeEqual } from "node:crypto";
import { htmlPage, Reply } from "./http";
import type { EmulatorUser } from "./types";
import { reading } from "./readings";

export type AuthResult = { ok: true; user: EmulatorUser } | { ok: false; reply: Reply };

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Jenkins' answers for Basic authentication with an API token. A non-Basic authorization header is ignored by
 * Jenkins, so such a caller is anonymous (the reading nonBasicAuth). The token is never echoed back.
 */
export function authenticateJenkins(authorization: string | undefined, users: EmulatorUser[]): AuthResult {
  const m = /^Basic\s+(\S*)\s*$/i.exec(authorization ?? "");
  if (!m && authorization && reading("nonBasicAuth") === "refused") {
    return {
      ok: false,
      reply: htmlPage(401, "Unauthorized", "Unsupported authorization scheme", { "www-authenticate": 'Basic realm="Jenkins"' }),
    };
  }
  if (!m) {
    return {
      ok: false,
      reply: htmlPage(403, "Forbidden", "Authentication required", { "x-you-are-authenticated-as": "anonymous" }),
    };
  }
  const decoded = Buffer.from(m[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const username = colon >= 0 ? decoded.slice(0, colon) : decoded;
  const token = colon >= 0 ? decoded.slice(colon + 1) : "";
  const user = users.find((u) => u.username === username && sameSecret(u.apiToken, token));
  if (!user) {
    return {
      ok: false,
      reply: htmlPage(401, "Unauthorized", `Invalid password/token for user: ${username}`, {
        "www-authenticate": 'Basic realm="Jenkins"',
      }),
    };
  }
  if (!user.admin) {
    return {
      ok: false,
      reply: htmlPage(403, "Forbidden", `${user.username} is missing the Overall/Administer permission`, {
        "x-you-are-authenticated-as": user.username,
      }),
    };
  }
  return { ok: true, user };
}
