import { resolveObjectURL } from "node:buffer";
import { describe, expect, it } from "vitest";
import { holdObjectUrl, objectUrlOf } from "./use-object-url";

// Node keeps object URLs as browsers do (URL.createObjectURL, and resolveObjectURL to see
// whether one still points at its Blob), so the counting is checked on real URLs.

const tick = () => new Promise((r) => setTimeout(r, 5));
const alive = (url: string) => resolveObjectURL(url) !== undefined;

describe("object URLs held by the components showing them", () => {
  it("revokes a Blob's URL when its last holder lets go, not before; a later holder gets a fresh one", async () => {
    const blob = new Blob([new Uint8Array([1, 2, 3])], { type: "image/jpeg" });
    const url = objectUrlOf(blob);
    expect(objectUrlOf(blob)).toBe(url);
    const releaseA = holdObjectUrl(blob);
    const releaseB = holdObjectUrl(blob);
    releaseA();
    await tick();
    expect(alive(url)).toBe(true);
    releaseB();
    await tick();
    expect(alive(url)).toBe(false);

    const again = objectUrlOf(blob);
    expect(again).not.toBe(url);
    const release = holdObjectUrl(blob);
    expect(alive(again)).toBe(true);
    release();
    await tick();
    expect(alive(again)).toBe(false);
  });

  it("keeps the URL through a release and a hold in the same task (StrictMode's effect, cleanup, effect)", async () => {
    const blob = new Blob([new Uint8Array([4, 5, 6])]);
    const url = objectUrlOf(blob);
    holdObjectUrl(blob)();
    const release = holdObjectUrl(blob);
    await tick();
    expect(alive(url)).toBe(true);
    expect(objectUrlOf(blob)).toBe(url);
    release();
    await tick();
    expect(alive(url)).toBe(false);
  });
});
