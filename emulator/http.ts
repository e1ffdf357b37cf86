import type { IncomingHttpHeaders } from "node:http";

/** A request as the routers see it: body already read, query flattened, header names lower-case. */
export interface EmulatorRequest {
  method: string;
  /** Pathname exactly as received (percent-encoding kept), no query. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Buffer;
  clientIp: string;
}

/** Handlers return a reply instead of writing to the socket, so the server can journal the status first. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { "content-type": "application/json;charset=utf-8", ...headers },
    body: Buffer.from(JSON.stringify(value)),
  };
}

export function jsonError(status: number, message: string): Reply {
  return json(status, { error: message });
}

export function text(status: number, content: string, contentType = "text/plain;charset=utf-8", headers: Record<string, string> = {}): Reply {
  return { status, headers: { ...headers, "content-type": contentType }, body: Buffer.from(content) };
}

export function yamlText(content: string): Reply {
  return text(200, content, "text/yaml;charset=utf-8");
}

export function zipReply(content: Buffer, filename: string, disposition: "attachment" | "inline" = "attachment"): Reply {
  return {
    status: 200,
    headers: {
      "content-type": "application/zip",
      "content-disposition": `${disposition}; filename="${filename.replace(/["\\\r\n]/g, "_")}"`,
    },
    body: content,
  };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Jenkins-style error page (Jetty's layout), used for 403 and 404 answers of OC and controllers. */
export function htmlPage(status: number, title: string, message: string, headers: Record<string, string> = {}): Reply {
  const body =
    `<html><head><meta http-equiv="Content-Type" content="text/html;charset=utf-8"/>` +
    `<title>Error ${status} ${escapeHtml(title)}</title></head>` +
    `<body><h2>HTTP ERROR ${status} ${escapeHtml(title)}</h2>` +
    `<p>${escapeHtml(message)}</p></body></html>\n`;
  return { status, headers: { "content-type": "text/html;charset=utf-8", ...headers }, body: Buffer.from(body) };
}

export function notFoundPage(path: string): Reply {
  return htmlPage(404, "Not Found", `Nothing is served at ${path}`);
}

/** Decodes one path segment; a malformed escape is kept literally rather than failing the request. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
