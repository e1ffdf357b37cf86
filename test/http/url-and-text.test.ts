import { ConfigurationError } from "../../provider/http/errors";
import { describeBody, formatZodIssue } from "../../provider/http/response-text";
import { jsonTextTooDeep } from "../../provider/http/json-depth";
import { Redactor, Secret } from "../../provider/http/redaction";
import { buildUrl, parseBaseUrl, quotedUrl } from "../../provider/http/url";
import { inspect } from "node:util";

describe("base URLs", () => {
  it("keeps the installation prefix, with or without a trailing slash", () => {
    for (const base of ["https://ci.example.com/cjoc", "https://ci.example.com/cjoc/"]) {
      const url = buildUrl(parseBaseUrl("baseUrl", base, false), "casc-bundle/list");
      expect(url.href).toBe("https://ci.example.com/cjoc/casc-bundle/list");
    }
    expect(buildUrl(parseBaseUrl("baseUrl", "https://x-api.rollout.io", false), "public-api/applications").href).toBe(
      "https://x-api.rollout.io/public-api/applications",
    );
  });

  it("puts parameters in the query string, encoded, and leaves out undefined ones", () => {
    const base = parseBaseUrl("baseUrl", "https://ci.example.com/cjoc/", false);
    const url = buildUrl(base, "casc-bundle/set-availability-pattern", { bundleId: "main/a b", regex: "team-a/.*", quiet: undefined });
    expect(url.pathname).toBe("/cjoc/casc-bundle/set-availability-pattern");
    expect([...url.searchParams.entries()]).toEqual([
      ["bundleId", "main/a b"],
      ["regex", "team-a/.*"],
    ]);
  });

  it("refuses plain http to a remote host unless allowed, but not to loopback", () => {
    expect(() => parseBaseUrl("baseUrl", "http://ci.example.com/cjoc/", false)).toThrow(ConfigurationError);
    expect(() => parseBaseUrl("baseUrl", "http://ci.example.com/cjoc/", false)).toThrow(/in clear.*allowInsecureHttp/);
    expect(parseBaseUrl("baseUrl", "http://ci.example.com/cjoc/", true).href).toBe("http://ci.example.com/cjoc/");
    expect(parseBaseUrl("baseUrl", "http://127.0.0.1:8080/cjoc", false).href).toBe("http://127.0.0.1:8080/cjoc/");
    expect(parseBaseUrl("baseUrl", "http://localhost:8080/", false).href).toBe("http://localhost:8080/");
  });

  it("refuses what is not an absolute http(s) URL, and URLs carrying credentials", () => {
    expect(() => parseBaseUrl("baseUrl", "ci.example.com/cjoc", false)).toThrow(/not an absolute URL/);
    expect(() => parseBaseUrl("baseUrl", "ftp://ci.example.com/", false)).toThrow(/unsupported protocol/);
    expect(() => parseBaseUrl("baseUrl", "https://u:p@ci.example.com/", false)).toThrow(/must not carry credentials/);
  });
});

describe("body excerpts", () => {
  it("uses the error of a JSON body", () => {
    expect(describeBody('{"error":"Invalid zip file: Cannot be unzipped"}')).toBe("Invalid zip file: Cannot be unzipped");
  });
  it("reads the text of an HTML page", () => {
    const html = "<html><head><title>x</title><style>p{}</style></head><body><h1>Error</h1><p>alice is missing the Overall/Administer permission</p></body></html>";
    expect(describeBody(html)).toBe("Error alice is missing the Overall/Administer permission");
  });
  it("cuts long bodies, but keeps much more of the server's own JSON message", () => {
    expect(describeBody("x".repeat(1000)).length).toBe(241);
    const message = "Bundle 'main/team-b' references the missing file 'x.yaml'. ".repeat(10);
    expect(describeBody(JSON.stringify({ error: message }))).toBe(message.trim());
    expect(describeBody(JSON.stringify({ error: "y".repeat(5000) })).length).toBe(2001);
  });
  it("names the field of a zod issue", () => {
    expect(formatZodIssue({ path: ["bundles", 0, "usedBy"], message: "expected array" })).toEqual({
      field: "bundles[0].usedBy",
      message: "expected array",
    });
  });
});

describe("redaction", () => {
  it("scrubs every secret from text", () => {
    const r = new Redactor(["s3cr3t-token", "Basic YWRtaW46czNjcjN0", undefined, "ab"]);
    expect(r.redact("token s3cr3t-token and Basic YWRtaW46czNjcjN0; ab stays")).toBe("token [redacted] and [redacted]; ab stays");
  });
  it("a Secret never prints its value", () => {
    const s = new Secret("hunter2-token");
    expect(String(s)).toBe("[redacted]");
    expect(`${s}`).toBe("[redacted]");
    expect(JSON.stringify({ s })).toBe('{"s":"[redacted]"}');
    expect(inspect({ s })).not.toContain("hunter2");
    expect(s.reveal()).toBe("hunter2-token");
  });
});

describe("issue 19: quoting URLs and values, measuring depth", () => {
  it("quotedUrl drops user-info, query and fragment, even from a URL that does not parse", () => {
    expect(quotedUrl("http://admin:tok@127.0.0.1:99999/cjoc/")).toBe("http://127.0.0.1:99999/cjoc/");
    expect(quotedUrl("https://a@b:pw@ci.example.com/x/?token=s3cret#frag")).toBe("https://ci.example.com/x/");
    expect(quotedUrl("admin:tok@ci.example.com/x")).toBe("ci.example.com/x");
    expect(quotedUrl("https://ci.example.com/team-a/")).toBe("https://ci.example.com/team-a/");
  });

  it("jsonTextTooDeep counts brackets outside strings only", () => {
    expect(jsonTextTooDeep(`${"[".repeat(65)}${"]".repeat(65)}`)).toBe(true);
    expect(jsonTextTooDeep(`${"[".repeat(64)}${"]".repeat(64)}`)).toBe(false);
    expect(jsonTextTooDeep(JSON.stringify({ a: "[".repeat(1000), b: '\\"[[[' }))).toBe(false);
  });

  it("an HTML page with unclosed tags and scripts keeps its text", () => {
    expect(describeBody("<html><head><title>x</title></head><body>Not <b>found</b><script>var a = '<p>';</script> here</body></html>")).toBe(
      "Not found here",
    );
    expect(describeBody(`<html><body>Broken ${"<a".repeat(10)}`)).toBe("Broken");
  });
});
