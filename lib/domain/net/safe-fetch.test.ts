import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/foundation/config";
import { FetchFailedError, UrlNotAllowedError } from "./errors";
import type { LookupFn } from "./resolve-host";
import { safeFetch } from "./safe-fetch";

// 1x1 transparent PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

let server: http.Server;
let base: string;
let port: number;
/** Paths the server was asked for, in order. */
let hits: string[];
/** Per path: resolves when that response closes, with whether it finished normally. */
const closed = new Map<string, Promise<boolean>>();

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const path = req.url ?? "/";
  hits.push(path);
  closed.set(path, new Promise((resolve) => res.on("close", () => resolve(res.writableFinished))));
  const stream = (chunk: Buffer) => {
    const timer = setInterval(() => res.write(chunk), 5);
    res.on("close", () => clearInterval(timer));
  };

  if (path === "/png") {
    res.writeHead(200, { "content-type": "text/plain" }).end(PNG);
  } else if (path === "/text") {
    res.writeHead(200, { "content-type": "text/plain" }).end("just some words");
  } else if (path === "/host") {
    res.writeHead(200).end(`host=${req.headers.host}`);
  } else if (path === "/big-declared") {
    // Claims 10 MB and trickles; the client must give up on the header alone.
    res.writeHead(200, { "content-length": String(10 * 1024 * 1024) });
    stream(Buffer.alloc(1024));
  } else if (path === "/big-chunked") {
    // No Content-Length: only counting bytes can stop this one.
    res.writeHead(200, { "content-type": "image/png" });
    res.write(PNG);
    stream(Buffer.alloc(16 * 1024));
  } else if (path === "/exact") {
    res.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(1000 - PNG.length)]));
  } else if (path === "/slow-headers") {
    setTimeout(() => res.writeHead(200).end(PNG), 5_000).unref();
  } else if (path === "/slow-body") {
    res.writeHead(200);
    res.write(PNG.subarray(0, 10));
    setTimeout(() => res.end(PNG.subarray(10)), 5_000).unref();
  } else if (path === "/missing") {
    res.writeHead(404).end("nope");
  } else if (path === "/empty") {
    res.writeHead(200).end();
  } else if (path === "/to-png") {
    res.writeHead(302, { location: "/png" }).end();
  } else if (path === "/to-private-ip") {
    res.writeHead(302, { location: "http://10.0.0.1/secret" }).end();
  } else if (path === "/to-metadata") {
    res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end();
  } else if (path === "/to-private-name") {
    res.writeHead(301, { location: `http://internal.test:${port}/png` }).end();
  } else if (path === "/to-ftp") {
    res.writeHead(302, { location: "ftp://example.com/file.png" }).end();
  } else if (path.startsWith("/loop/")) {
    res.writeHead(302, { location: `/loop/${Number(path.slice(6)) + 1}` }).end();
  } else {
    res.writeHead(500).end();
  }
}

/** Fake DNS; counts calls per host so tests can tell the check from the connect. */
function fakeDns(answer: (host: string, call: number) => string[]) {
  const calls = new Map<string, number>();
  const lookup: LookupFn = async (host) => {
    const call = (calls.get(host) ?? 0) + 1;
    calls.set(host, call);
    return answer(host, call).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { lookup, calls };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("expected the fetch to fail"),
    (err: unknown) => err,
  );
}

async function expectKind(promise: Promise<unknown>, kind: FetchFailedError["kind"]): Promise<FetchFailedError> {
  const err = await failure(promise);
  expect(err).toBeInstanceOf(FetchFailedError);
  expect((err as FetchFailedError).kind).toBe(kind);
  return err as FetchFailedError;
}

/** The server-side response closed before it finished sending, i.e. the client hung up. */
async function expectAborted(path: string): Promise<void> {
  const finished = await Promise.race([
    closed.get(path),
    new Promise((resolve) => setTimeout(() => resolve("still open"), 2_000)),
  ]);
  expect(finished).toBe(false);
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  hits = [];
  closed.clear();
  process.env.FETCH_ALLOW_HOSTS = "127.0.0.1";
  resetConfig();
});

afterEach(() => {
  delete process.env.FETCH_ALLOW_HOSTS;
  resetConfig();
});

describe("safeFetch", () => {
  it("decides the type from magic bytes, not the Content-Type header", async () => {
    const result = await safeFetch(`${base}/png`, { maxBytes: 1024 });
    expect(result.bytes.equals(PNG)).toBe(true);
    expect(result.mime).toBe("image/png");
    expect(result.ext).toBe("png");
    expect(result.declaredContentType).toBe("text/plain");
    expect(result.finalUrl).toBe(`${base}/png`);
  });

  it("returns mime undefined for content without a known signature", async () => {
    const result = await safeFetch(`${base}/text`, { maxBytes: 1024 });
    expect(result.bytes.toString()).toBe("just some words");
    expect(result.mime).toBeUndefined();
  });

  it("accepts a body of exactly maxBytes", async () => {
    const result = await safeFetch(`${base}/exact`, { maxBytes: 1000 });
    expect(result.bytes.length).toBe(1000);
  });

  it("refuses an oversized Content-Length up front and drops the connection", async () => {
    const err = await expectKind(safeFetch(`${base}/big-declared`, { maxBytes: 1000 }), "too_large");
    expect(err.message).toBe("The file is larger than the 1000 bytes limit.");
    await expectAborted("/big-declared");
  });

  it("stops reading a chunked body once it passes maxBytes and drops the connection", async () => {
    await expectKind(safeFetch(`${base}/big-chunked`, { maxBytes: 100 * 1024 }), "too_large");
    await expectAborted("/big-chunked");
  });

  it("times out while waiting for headers", async () => {
    const started = Date.now();
    const err = await expectKind(safeFetch(`${base}/slow-headers`, { maxBytes: 1024, timeoutMs: 300 }), "timeout");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(err.message).toMatch(/too long/);
  });

  it("times out while the body trickles in", async () => {
    await expectKind(safeFetch(`${base}/slow-body`, { maxBytes: 1024, timeoutMs: 300 }), "timeout");
    await expectAborted("/slow-body");
  });

  it("rethrows the caller's own abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error("job cancelled");
    setTimeout(() => controller.abort(reason), 100);
    const err = await failure(safeFetch(`${base}/slow-headers`, { maxBytes: 1024, signal: controller.signal }));
    expect(err).toBe(reason);
  });

  it("reports a 404 as http_status with a readable message", async () => {
    const err = await expectKind(safeFetch(`${base}/missing`, { maxBytes: 1024 }), "http_status");
    expect(err.status).toBe(404);
    expect(err.message).toBe("The source URL answered 404 Not Found.");
  });

  it("reports an empty body", async () => {
    await expectKind(safeFetch(`${base}/empty`, { maxBytes: 1024 }), "empty");
  });

  it("reports a closed port as unreachable", async () => {
    const spare = http.createServer();
    await new Promise<void>((resolve) => spare.listen(0, "127.0.0.1", resolve));
    const sparePort = (spare.address() as AddressInfo).port;
    await new Promise((resolve) => spare.close(resolve));
    await expectKind(safeFetch(`http://127.0.0.1:${sparePort}/png`, { maxBytes: 1024 }), "unreachable");
  });

  it("follows redirects and reports the final URL", async () => {
    const result = await safeFetch(`${base}/to-png`, { maxBytes: 1024 });
    expect(result.mime).toBe("image/png");
    expect(result.finalUrl).toBe(`${base}/png`);
    expect(hits).toEqual(["/to-png", "/png"]);
  });

  it.each(["/to-private-ip", "/to-metadata", "/to-ftp"])("refuses a redirect hop %s", async (path) => {
    const started = Date.now();
    const err = await failure(safeFetch(`${base}${path}`, { maxBytes: 1024 }));
    expect(err).toBeInstanceOf(UrlNotAllowedError);
    // Refused before dialling: a connection attempt to 10.0.0.1 would hang until the timeout.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("refuses a redirect to a host name that resolves privately", async () => {
    const dns = fakeDns((host) => (host === "internal.test" ? ["10.0.0.1"] : []));
    const err = await failure(safeFetch(`${base}/to-private-name`, { maxBytes: 1024, lookup: dns.lookup }));
    expect(err).toBeInstanceOf(UrlNotAllowedError);
    expect(hits).toEqual(["/to-private-name"]);
  });

  it("gives up after maxRedirects", async () => {
    const err = await expectKind(safeFetch(`${base}/loop/0`, { maxBytes: 1024, maxRedirects: 3 }), "too_many_redirects");
    expect(err.message).toMatch(/more than 3 times/);
    expect(hits).toEqual(["/loop/0", "/loop/1", "/loop/2", "/loop/3"]);
  });

  it("refuses the local server when it is not allow-listed", async () => {
    delete process.env.FETCH_ALLOW_HOSTS;
    resetConfig();
    await expect(safeFetch(`${base}/png`, { maxBytes: 1024 })).rejects.toBeInstanceOf(UrlNotAllowedError);
    await expect(safeFetch(`http://localhost:${port}/png`, { maxBytes: 1024 })).rejects.toBeInstanceOf(
      UrlNotAllowedError,
    );
    expect(hits).toEqual([]);
  });
});

describe("safeFetch DNS pinning", () => {
  it("refuses a host that answers public at check time and private at connect time (DNS rebinding)", async () => {
    const dns = fakeDns((_host, call) => (call === 1 ? ["93.184.216.34"] : ["127.0.0.1"]));
    const err = await failure(safeFetch(`http://rebind.test:${port}/png`, { maxBytes: 1024, lookup: dns.lookup }));
    expect(err).toBeInstanceOf(UrlNotAllowedError);
    // Second resolution happened inside the socket's connect, and nothing reached the server.
    expect(dns.calls.get("rebind.test")).toBe(2);
    expect(hits).toEqual([]);
  });

  it("refuses a host whose connect-time answer mixes public and private addresses", async () => {
    const dns = fakeDns((_host, call) => (call === 1 ? ["93.184.216.34"] : ["93.184.216.34", "127.0.0.1"]));
    const err = await failure(safeFetch(`http://rebind.test:${port}/png`, { maxBytes: 1024, lookup: dns.lookup }));
    expect(err).toBeInstanceOf(UrlNotAllowedError);
    expect(hits).toEqual([]);
  });

  it("connects to exactly the address the checked lookup returned", async () => {
    // pinned.test exists only in our fake DNS: reaching the server proves the socket
    // dialled the address our lookup vetted, not a fresh system resolution.
    process.env.FETCH_ALLOW_HOSTS = "pinned.test";
    resetConfig();
    const dns = fakeDns((host) => (host === "pinned.test" ? ["127.0.0.1"] : []));
    const result = await safeFetch(`http://pinned.test:${port}/host`, { maxBytes: 1024, lookup: dns.lookup });
    expect(result.bytes.toString()).toBe(`host=pinned.test:${port}`);
    expect(dns.calls.get("pinned.test")).toBe(2);
  });
});
