import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { transferable } from "./transferable";

// What crosses a worker boundary: sharp's output (external memory, refused by a
// transfer on Node 22+) and a small pooled Buffer must both arrive whole, and the
// sender's own bytes must stay usable.
describe("transferable", () => {
  const send = (bytes: Uint8Array) => {
    const { port1, port2 } = new MessageChannel();
    const out = transferable(bytes);
    port1.postMessage({ bytes: out.bytes }, out.transfer);
    const got = receiveMessageOnPort(port2)?.message as { bytes: Uint8Array };
    port1.close();
    return { got: got.bytes, sent: out.bytes };
  };

  it("moves sharp's output buffer and leaves the original intact", async () => {
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#c33" } }).png().toBuffer();
    const before = Buffer.from(png);
    const { got, sent } = send(png);
    expect(Buffer.from(got).equals(before)).toBe(true);
    expect(sent.byteLength).toBe(0); // the copy was moved, not cloned
    expect(png.equals(before)).toBe(true); // the caller's Buffer is not detached
  });

  it("moves a view into Node's shared Buffer pool without detaching the pool", () => {
    const small = Buffer.from("a small pooled buffer");
    expect(small.buffer.byteLength).toBeGreaterThan(small.byteLength); // it is a pool slice
    const { got } = send(small);
    expect(Buffer.from(got).toString()).toBe("a small pooled buffer");
    expect(Buffer.from("another pooled buffer").toString()).toBe("another pooled buffer");
    expect(small.toString()).toBe("a small pooled buffer");
  });
});
