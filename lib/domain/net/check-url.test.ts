import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/foundation/config";
import { checkFetchableUrl } from "./check-url";
import { FetchFailedError, UrlNotAllowedError } from "./errors";
import type { LookupFn } from "./resolve-host";

/** Fake DNS: a fixed table; unknown names fail like ENOTFOUND. */
const fakeDns =
  (table: Record<string, string[]>): LookupFn =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

afterEach(() => {
  delete process.env.FETCH_ALLOW_HOSTS;
  resetConfig();
});

describe("checkFetchableUrl", () => {
  it.each([
    "ftp://example.com/file.png",
    "file:///etc/passwd",
    "data:image/png;base64,iVBORw0KGgo=",
    "javascript:alert(1)",
    "gopher://example.com/",
    "not a url",
    "/relative/path.png",
    "http://127.0.0.1/",
    "http://127.0.0.1:8080/admin",
    "http://localhost/",
    "http://localhost./",
    "http://[::1]/",
    "http://[0:0:0:0:0:0:0:1]:3000/",
    "http://10.0.0.5/",
    "http://192.168.0.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://[fd00:ec2::254]/latest/meta-data",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::7f00:1]/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0x7f.1/",
    "http://017700000001/",
    "http://127.1/",
    "http://0.0.0.0/",
    "http://user:pass@example.com/",
    "http://user@example.com/",
    "https://:secret@example.com/",
  ])("refuses %s", async (url) => {
    await expect(checkFetchableUrl(url)).rejects.toBeInstanceOf(UrlNotAllowedError);
  });

  it("allows a public IP literal without resolving or connecting", async () => {
    const lookup: LookupFn = async () => {
      throw new Error("must not resolve a literal");
    };
    const url = await checkFetchableUrl("http://93.184.216.34/photo.jpg", { lookup });
    expect(url.href).toBe("http://93.184.216.34/photo.jpg");
    await expect(checkFetchableUrl("https://[2606:4700::1111]:8443/a.png", { lookup })).resolves.toBeInstanceOf(URL);
  });

  it("judges host names by every address they resolve to", async () => {
    const lookup = fakeDns({
      "public.test": ["93.184.216.34", "2606:4700::1111"],
      "metadata.test": ["169.254.169.254"],
      "internal.test": ["10.0.0.1"],
      "mixed.test": ["93.184.216.34", "127.0.0.1"],
      "v6private.test": ["fd00::1"],
    });
    await expect(checkFetchableUrl("https://public.test/a.png", { lookup })).resolves.toBeInstanceOf(URL);
    for (const host of ["metadata.test", "internal.test", "mixed.test", "v6private.test"]) {
      await expect(checkFetchableUrl(`https://${host}/a.png`, { lookup })).rejects.toBeInstanceOf(UrlNotAllowedError);
    }
  });

  it("reports a host that does not resolve as unreachable", async () => {
    const err = await checkFetchableUrl("https://nowhere.test/", { lookup: fakeDns({}) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchFailedError);
    expect((err as FetchFailedError).kind).toBe("unreachable");
  });

  it("lets FETCH_ALLOW_HOSTS entries through (names and literal IPs)", async () => {
    process.env.FETCH_ALLOW_HOSTS = " 127.0.0.1 , Dev.Local,[::1]";
    resetConfig();
    const lookup = fakeDns({ "dev.local": ["192.168.1.20"], "other.local": ["192.168.1.21"] });
    await expect(checkFetchableUrl("http://127.0.0.1:3000/", { lookup })).resolves.toBeInstanceOf(URL);
    await expect(checkFetchableUrl("http://2130706433:3000/", { lookup })).resolves.toBeInstanceOf(URL);
    await expect(checkFetchableUrl("http://[::1]:3000/", { lookup })).resolves.toBeInstanceOf(URL);
    await expect(checkFetchableUrl("http://dev.local/", { lookup })).resolves.toBeInstanceOf(URL);
    await expect(checkFetchableUrl("http://other.local/", { lookup })).rejects.toBeInstanceOf(UrlNotAllowedError);
    await expect(checkFetchableUrl("http://10.0.0.1/", { lookup })).rejects.toBeInstanceOf(UrlNotAllowedError);
  });
});
