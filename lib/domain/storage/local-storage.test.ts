import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectDeleteOwnerFiles } from "@/test/support/storage-contract";
import { config } from "@/lib/foundation/config";
import { LocalStorage } from "./local-storage";
import { isValidKey } from "./types";

const store = new LocalStorage();

describe("LocalStorage", () => {
  it("stores under <dataDir>/files and round-trips bytes and content type", async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
    await store.put("uploads/acc_1/img.png", bytes, "image/png");
    expect(store.root).toBe(path.join(config().dataDir, "files"));
    expect(fs.readFileSync(path.join(store.root, "uploads/acc_1/img.png"))).toEqual(bytes);
    const got = await store.get("uploads/acc_1/img.png");
    expect(got).toEqual({ body: bytes, contentType: "image/png" });
  });

  it("overwrites in place, leaving no temp files behind", async () => {
    await store.put("o/file.bin", Buffer.from("first"), "text/plain");
    await store.put("o/file.bin", Buffer.from("second!"), "application/pdf");
    expect(await store.get("o/file.bin")).toEqual({ body: Buffer.from("second!"), contentType: "application/pdf" });
    expect(fs.readdirSync(path.join(store.root, "o")).sort()).toEqual(["file.bin", "file.bin.meta.json"]);
  });

  it("returns null for missing objects (also when the key names a folder) and deletes idempotently", async () => {
    expect(await store.get("nope/none.png")).toBeNull();
    await store.put("d/x/y.txt", Buffer.from("y"), "text/plain");
    expect(await store.get("d/x")).toBeNull();
    expect(await store.get("d/x/y.txt/z")).toBeNull();
    await store.delete("d/x/y.txt");
    expect(await store.get("d/x/y.txt")).toBeNull();
    expect(fs.existsSync(path.join(store.root, "d/x/y.txt.meta.json"))).toBe(false);
    await expect(store.delete("d/x/y.txt")).resolves.toBeUndefined();
  });

  it("falls back to application/octet-stream when the sidecar is missing", async () => {
    await store.put("m/a.dat", Buffer.from("a"), "image/webp");
    fs.rmSync(path.join(store.root, "m/a.dat.meta.json"));
    expect((await store.get("m/a.dat"))?.contentType).toBe("application/octet-stream");
  });

  const badKeys = ["../x", "/etc/passwd", "a//b", "a/./b", "a/../../b", "..", ".", "", "a/", "a\\b", "a b", "a%2e", "é", "x.meta.json", "a\nb"];
  it.each(badKeys)("rejects key %j on every operation", async (key) => {
    expect(isValidKey(key)).toBe(false);
    await expect(store.put(key, Buffer.from("x"), "text/plain")).rejects.toThrow(/Invalid storage key/);
    await expect(store.get(key)).rejects.toThrow(/Invalid storage key/);
    await expect(store.delete(key)).rejects.toThrow(/Invalid storage key/);
    await expect(store.signedUrl(key, 60)).rejects.toThrow(/Invalid storage key/);
  });

  it("deletes one owner's objects in every area, and only theirs", async () => {
    await expectDeleteOwnerFiles(store);
  });

  it("accepts ordinary keys", () => {
    for (const key of ["a", "a.b", "uploads/acc_1/2024-01-01/img_A-b.c.png", "..a", "a..b/c"]) {
      expect(isValidKey(key)).toBe(true);
    }
  });

  it("never writes outside its root", async () => {
    const outside = path.join(config().dataDir, "escaped");
    await expect(store.put("../escaped", Buffer.from("x"), "text/plain")).rejects.toThrow();
    expect(fs.existsSync(outside)).toBe(false);
  });
});
