import { ZIP_UPLOAD_FIELD } from "./undocumented-behaviour";

/**
 * The spec names the zip a multipart/form-data field `bundle`, while the documented example sends the raw zip.
 * Both are accepted: this extracts the `bundle` part (or the first file part) of a multipart body.
 */

export function uploadedZip(contentType: string | undefined, body: Buffer): Buffer {
  const m = /^multipart\/form-data\s*;.*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  if (!m) return body;
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: { headers: string; content: Buffer }[] = [];
  let start = body.indexOf(boundary);
  while (start >= 0) {
    const next = body.indexOf(boundary, start + boundary.length);
    if (next < 0) break;
    const part = body.subarray(start + boundary.length, next);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      let content = part.subarray(headerEnd + 4);
      if (content.subarray(-2).toString() === "\r\n") content = content.subarray(0, -2);
      parts.push({ headers: part.subarray(0, headerEnd).toString("utf8"), content });
    }
    start = next;
  }
  const named = parts.find((p) => new RegExp(`name="${ZIP_UPLOAD_FIELD}"`, "i").test(p.headers));
  const file = named ?? parts.find((p) => /filename=/i.test(p.headers));
  return file ? file.content : body;
}
