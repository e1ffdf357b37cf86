import type { Reply } from "./http";

/**
 * The reading recordLinks=present: every record a feature-flag answer holds (the object answered, or each object of
 * a list) carries a field no source defines, HAL's `_links` with the record's own address, as a REST gateway adds
 * it. A client that sends a record back as it read it then sends `_links` too, which the reading unknownFields
 * refuses (400 "_links: unknown field").
 */
export function withRecordLinks(reply: Reply, path: string): Reply {
  if (reply.status < 200 || reply.status >= 300 || !/json/.test(reply.headers["content-type"] ?? "")) return reply;
  let value: unknown;
  try {
    value = JSON.parse(reply.body.toString("utf8"));
  } catch {
    return reply;
  }
  const linked = (v: unknown) => (typeof v === "object" && v !== null && !Array.isArray(v) ? { ...v, _links: { self: { href: path } } } : v);
  const out = Array.isArray(value) ? value.map(linked) : linked(value);
  return { ...reply, body: Buffer.from(JSON.stringify(out)) };
}
