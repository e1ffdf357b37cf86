import { readFileSync } from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import { AddressInfo } from "node:net";
import * as path from "node:path";
import { FeatureManagementClient, NetworkError } from "../../provider";

// A TLS server with a self-signed certificate (test/fixtures/tls) and a forward proxy, both on loopback.
const tlsDir = path.join(__dirname, "..", "fixtures", "tls");
const cert = readFileSync(path.join(tlsDir, "cert.pem"), "utf8");
const key = readFileSync(path.join(tlsDir, "key.pem"), "utf8");
const applications = [{ name: "checkout", id: "5e95ad1fa6de037e1793732b" }];

function listen(server: http.Server | https.Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(String((server.address() as AddressInfo).port))));
}

describe("TLS options", () => {
  const server = https.createServer({ cert, key }, (_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(applications));
  });
  let baseUrl = "";
  beforeAll(async () => {
    baseUrl = `https://127.0.0.1:${await listen(server)}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const client = (extra: object) =>
    new FeatureManagementClient({ baseUrl, token: "tls-test-token", minRequestIntervalMs: 1, maxRetries: 0, ...extra });

  it("refuses a certificate it cannot verify, with a network error", async () => {
    await expect(client({}).listApplications()).rejects.toThrow(NetworkError);
  });

  it("trusts a custom CA certificate", async () => {
    await expect(client({ caCertificate: cert }).listApplications()).resolves.toEqual(applications);
  });

  it("skips verification only when told to", async () => {
    await expect(client({ insecureSkipTlsVerify: true }).listApplications()).resolves.toEqual(applications);
  });
});

describe("proxy from the environment", () => {
  const seen: string[] = [];
  // The "remote" service, reachable only through the proxy (its host name never resolves).
  const upstream = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ? "with-auth" : "no-auth"}`);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(applications));
  });
  // A tunnelling proxy, as undici's ProxyAgent speaks CONNECT for every target.
  const proxy = http.createServer((_req, res) => res.writeHead(405).end());
  proxy.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const tunnel = net.connect(Number(upstreamPort), "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      tunnel.write(head);
      tunnel.pipe(client);
      client.pipe(tunnel);
    });
    tunnel.on("error", () => client.destroy());
    client.on("error", () => tunnel.destroy());
  });
  let upstreamPort = "";
  let proxyPort = "";
  const saved = { ...process.env };
  beforeAll(async () => {
    upstreamPort = await listen(upstream);
    proxyPort = await listen(proxy);
  });
  beforeEach(() => {
    seen.length = 0;
    process.env.HTTP_PROXY = `http://127.0.0.1:${proxyPort}`;
    delete process.env.http_proxy;
    delete process.env.no_proxy;
  });
  afterEach(() => {
    for (const name of ["HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"]) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    upstream.closeAllConnections();
    await new Promise<void>((r) => proxy.close(() => r()));
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  const remoteClient = () =>
    new FeatureManagementClient({
      baseUrl: "http://feature-flags.invalid/",
      token: "proxy-test-token",
      allowInsecureHttp: true,
      minRequestIntervalMs: 1,
      maxRetries: 0,
      timeoutMs: 5000,
    });

  it("sends requests for remote hosts through HTTP_PROXY", async () => {
    delete process.env.NO_PROXY;
    const client = remoteClient();
    await expect(client.listApplications()).resolves.toEqual(applications);
    await client.close();
    expect(seen).toEqual(["CONNECT feature-flags.invalid:80", "GET /public-api/applications with-auth"]);
  });

  it("bypasses the proxy for hosts in NO_PROXY", async () => {
    process.env.NO_PROXY = "feature-flags.invalid";
    const client = remoteClient();
    // Direct, the name does not resolve.
    await expect(client.listApplications()).rejects.toThrow(NetworkError);
    await client.close();
    expect(seen).toEqual([]);
  });
});
