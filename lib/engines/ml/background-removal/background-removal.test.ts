import fs from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ImageInputError,
  removeBackground,
  shutDownBackgroundRemoval,
  warmUpBackgroundRemoval,
  type BgRemovalOptions,
} from "./index";
import { insideDistance } from "./matte-ops";
import { shutDownFaces } from "@/lib/engines/ml/faces";

// The real model, in its worker thread, on real photos. One warm engine serves
// the whole file. A new photo costs one model run (a few seconds on 2 cores); the same
// photo again with other options reuses the matte the worker remembers (matte-memo.ts),
// so the option tests below share the coffee photo's one run.
const fixture = (name: string) => fs.readFileSync(path.join(__dirname, "fixtures", name));
const astronaut = fixture("astronaut.png"); // 512 x 512
const coffee = fixture("coffee.png"); // 600 x 400
const chelsea = fixture("chelsea.png"); // 451 x 300
const opts = (o: Partial<BgRemovalOptions> = {}): BgRemovalOptions => ({
  subjectType: "auto",
  edgeSoftness: 3,
  highDetail: false,
  background: "transparent",
  ...o,
});
const SLOW = 180_000;
/** The coffee cut-out with default options, shared by the tests that look at it. */
let coffeeDefault: ReturnType<typeof removeBackground> | undefined;
const coffeeWithDefaults = () => (coffeeDefault ??= removeBackground(coffee, opts()));

async function alphaOf(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Alpha values inside a rectangle, sorted. */
function region(a: { data: Buffer; width: number }, x: number, y: number, w: number, h: number): number[] {
  const out: number[] = [];
  for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) out.push(a.data[j * a.width + i]!);
  return out.sort((p, q) => p - q);
}
const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
const pct = (v: number[], p: number) => v[Math.min(v.length - 1, Math.floor((v.length * p) / 100))]!;

function expectBackground(v: number[]) {
  expect(mean(v)).toBeLessThan(8);
  expect(pct(v, 99)).toBeLessThan(40);
}
function expectSubject(v: number[]) {
  expect(mean(v)).toBeGreaterThan(247);
  expect(pct(v, 1)).toBeGreaterThan(215);
}

beforeAll(async () => {
  await warmUpBackgroundRemoval();
}, SLOW);
afterAll(async () => {
  await shutDownBackgroundRemoval();
  await shutDownFaces(); // a person's cut-out counts faces in the face engine's worker
});

describe("removeBackground with the ISNet model", () => {
  it("warm-up is idempotent: a second call returns at once", async () => {
    const t = performance.now();
    await warmUpBackgroundRemoval();
    expect(performance.now() - t).toBeLessThan(100);
  });

  it("cuts out the astronaut (person) at full size without blocking the event loop", async () => {
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const r = await removeBackground(astronaut, opts({ subjectType: "person" }));
    lag.disable();
    // The model alone takes seconds; on the main thread that would show as seconds of lag.
    expect(lag.max / 1e6).toBeLessThan(500);

    expect(r).toMatchObject({ width: 512, height: 512, provider: "isnet-onnx" });
    expect(r.timingsMs.inference).toBeGreaterThan(0);
    const meta = await sharp(r.png).metadata();
    expect(meta).toMatchObject({ format: "png", width: 512, height: 512, channels: 4, hasAlpha: true });
    const a = await alphaOf(r.png);
    // Background: the plain grey wall between her head and the shuttle model, and
    // the flag at the left edge (both clearly behind her).
    expectBackground(region(a, 310, 30, 40, 80));
    expectBackground(region(a, 0, 150, 35, 100));
    // Subject: her face, and the orange suit on her right arm / chest.
    expectSubject(region(a, 195, 95, 50, 35));
    expectSubject(region(a, 80, 300, 50, 100));
  }, SLOW);

  it("cuts out the coffee cup (object): table gone, cup and saucer kept", async () => {
    const r = await coffeeWithDefaults();
    expect([r.width, r.height]).toEqual([600, 400]);
    const a = await alphaOf(r.png);
    // Background: the wooden table top right and bottom left, away from the saucer.
    expectBackground(region(a, 510, 20, 80, 80));
    expectBackground(region(a, 0, 345, 60, 50));
    // Subject: the crema inside the cup and the saucer's red rim on the left.
    expectSubject(region(a, 240, 120, 90, 50));
    expectSubject(region(a, 120, 250, 50, 50));
  }, SLOW);

  it("edgeSoftness 0 is a hard cut: alpha is only 0 or 255", async () => {
    const r = await removeBackground(coffee, opts({ edgeSoftness: 0 }));
    const values = new Set((await alphaOf(r.png)).data);
    expect([...values].sort((x, y) => x - y)).toEqual([0, 255]);
  }, SLOW);

  it("edgeSoftness 10 feathers: a wide band of intermediate alpha along the outline", async () => {
    const [soft, normal] = [await removeBackground(coffee, opts({ edgeSoftness: 10 })), await coffeeWithDefaults()];
    const between = async (png: Buffer) => [...(await alphaOf(png)).data].filter((v) => v > 10 && v < 245).length;
    const [nSoft, nNormal] = [await between(soft.png), await between(normal.png)];
    // The cup's outline is ~1,800 px long; a feather of several px each side of it.
    expect(nSoft).toBeGreaterThan(10_000);
    expect(nSoft).toBeGreaterThan(nNormal * 2);
  }, SLOW);

  it("product mode makes the interior solid: no translucent pixel deeper than 6 px inside the outline", async () => {
    await coffeeWithDefaults();
    const r = await removeBackground(coffee, opts({ subjectType: "product" }));
    // The same photo as the default cut-out: its matte was remembered, the model did not run again.
    expect(r.timingsMs.salientCached).toBe(1);
    const a = await alphaOf(r.png);
    const matte = { data: Float32Array.from(a.data, (v) => v / 255), width: a.width, height: a.height };
    const depth = insideDistance(matte);
    let deep = 0;
    let translucentDeep = 0;
    for (let i = 0; i < depth.length; i++) {
      if (depth[i]! > 6) {
        deep++;
        if (a.data[i]! < 255) translucentDeep++;
      }
    }
    expect(deep).toBeGreaterThan(50_000);
    expect(translucentDeep).toBe(0);
  }, SLOW);

  it("logo mode gives hard edges (0/255 whatever the softness) and keeps real holes open", async () => {
    // A ring, a bar and a star on white: the ring's centre is a real hole.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><rect width="800" height="400" fill="#fff"/>
      <circle cx="200" cy="200" r="130" fill="none" stroke="#1a4fd6" stroke-width="50"/>
      <rect x="400" y="90" width="90" height="220" fill="#d62828"/>
      <polygon points="620,80 660,190 770,190 680,255 715,360 620,295 525,360 560,255 470,190 580,190" fill="#f4a100"/></svg>`;
    const logo = await sharp(Buffer.from(svg)).png().toBuffer();
    const r = await removeBackground(logo, opts({ subjectType: "logo", edgeSoftness: 6 }));
    const a = await alphaOf(r.png);
    expect([...new Set(a.data)].sort((x, y) => x - y)).toEqual([0, 255]);
    expectBackground(region(a, 170, 170, 60, 60)); // inside the ring
    expectBackground(region(a, 0, 0, 60, 60));
    expectSubject(region(a, 410, 120, 70, 160)); // the bar
    expectSubject(region(a, 195, 55, 10, 35)); // the ring's top stroke (y 45..95)
  }, SLOW);

  it("honours EXIF orientation and, on white, returns an opaque PNG without alpha", async () => {
    // Stored 600 x 400 with orientation 6 (turn 90° clockwise to display): upright it is 400 x 600.
    const rotated = await sharp(coffee).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    const r = await removeBackground(rotated, opts({ background: "white" }));
    expect([r.width, r.height]).toEqual([400, 600]);
    const meta = await sharp(r.png).metadata();
    expect(meta).toMatchObject({ format: "png", width: 400, height: 600, channels: 3, hasAlpha: false });
    const out = await sharp(r.png).raw().toBuffer();
    const upright = await sharp(rotated).rotate().raw().toBuffer();
    const meanDiff = (x0: number, y0: number, w: number, h: number) => {
      let diff = 0;
      for (let y = y0; y < y0 + h; y++) {
        for (let x = x0; x < x0 + w; x++) {
          for (let c = 0; c < 3; c++) diff += Math.abs(out[(y * 400 + x) * 3 + c]! - upright[(y * 400 + x) * 3 + c]!);
        }
      }
      return diff / (w * h * 3);
    };
    // The crema (upright: x 235..275, y 245..325) is the photo's own pixels, the
    // table below the saucer (upright bottom left) is white.
    expect(meanDiff(235, 245, 40, 80)).toBeLessThan(4);
    const table = await sharp(r.png).extract({ left: 0, top: 520, width: 100, height: 80 }).raw().toBuffer();
    expect(mean([...table])).toBeGreaterThan(248);
  }, SLOW);

  it("handles 12 megapixels; high detail follows the true outline far better than plain upsampling", async () => {
    // A sharp-edged disc on a 4000 x 3000 JPEG. The model sees it at 1024 px; the
    // cut-out is judged at full size against the exact geometry.
    const W = 4000, H = 3000, CX = 2300, CY = 1400, R = 700;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#f2f2f2"/><circle cx="${CX}" cy="${CY}" r="${R}" fill="#c0392b"/></svg>`;
    const input = await sharp(Buffer.from(svg)).jpeg({ quality: 95 }).toBuffer();
    const wrongPixels = async (highDetail: boolean) => {
      // "product": as "auto" the person model may take a plain disc for a head and apply the
      // person rule, whose edges are always guided, which would leave nothing to compare.
      const r = await removeBackground(input, opts({ subjectType: "product", edgeSoftness: 0, highDetail }));
      expect([r.width, r.height]).toEqual([W, H]);
      const a = await alphaOf(r.png);
      let wrong = 0;
      for (let y = CY - R - 20; y <= CY + R + 20; y++) {
        for (let x = CX - R - 20; x <= CX + R + 20; x++) {
          const inside = Math.hypot(x + 0.5 - CX, y + 0.5 - CY) <= R;
          if (inside !== (a.data[y * W + x] === 255)) wrong++;
        }
      }
      return { wrong, timings: r.timingsMs };
    };
    const plain = await wrongPixels(false);
    const detailed = await wrongPixels(true);
    // The disc fills a quarter of the frame, so high detail ran a second, closer pass.
    expect(plain.timings.refineInference).toBeUndefined();
    expect(detailed.timings.refineInference).toBeGreaterThan(0);
    // The outline is ~4,400 px long: plain is off by ~0.5 px along it, high detail far less.
    expect(plain.wrong).toBeLessThan(8_000);
    expect(detailed.wrong).toBeLessThan(plain.wrong / 3);
  }, SLOW);
});

describe("bad input", () => {
  const cases: [string, () => Promise<Buffer>, RegExp][] = [
    ["an empty file", async () => Buffer.alloc(0), /empty/],
    ["a text file", async () => Buffer.from("hello, this is not an image\n".repeat(20)), /not an image we can read/],
    ["a PDF", async () => Buffer.from("%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"), /not an image we can read/],
    ["an SVG drawing", async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), /SVG/],
    ["a truncated PNG", async () => coffee.subarray(0, Math.floor(coffee.length / 2)), /damaged or incomplete/],
    [
      "a truncated JPEG",
      async () => {
        const jpeg = await sharp(coffee).jpeg().toBuffer();
        return jpeg.subarray(0, Math.floor(jpeg.length * 0.6));
      },
      /damaged or incomplete/,
    ],
    [
      "an image over the pixel limit (64 MP > 50 MP)",
      async () => sharp({ create: { width: 8000, height: 8000, channels: 3, background: "#fff" } }).png().toBuffer(),
      /8000 × 8000 pixels \(64 megapixels\); the largest accepted is 50 megapixels/,
    ],
  ];
  for (const [what, make, message] of cases) {
    it(`refuses ${what} with a customer-facing ImageInputError`, async () => {
      const input = await make();
      const err = await removeBackground(input, opts()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImageInputError);
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toMatch(/vips|sharp|Error:|\bat\b.*\.ts/);
    }, SLOW);
  }

  it("rejects an out-of-range edgeSoftness as a programming error", async () => {
    await expect(removeBackground(coffee, opts({ edgeSoftness: 11 }))).rejects.toThrow(RangeError);
    await expect(removeBackground(coffee, opts({ edgeSoftness: 2.5 }))).rejects.toThrow(RangeError);
  });
});

describe("cancellation and the concurrency limit", () => {
  it("drops a queued job, discards a running one, and the engine goes on", async () => {
    const already = new AbortController();
    already.abort();
    await expect(removeBackground(coffee, opts(), already.signal)).rejects.toMatchObject({ name: "AbortError" });

    const running = new AbortController();
    const queued = new AbortController();
    // A photo the worker has not seen (its remembered coffee matte would make the run too short to abort).
    const mirrored = await sharp(coffee).flop().png().toBuffer();
    const first = removeBackground(mirrored, opts(), running.signal);
    const second = removeBackground(mirrored, opts(), queued.signal);
    const third = removeBackground(chelsea, opts());
    // One worker by default on this machine: the second waits behind the first.
    queued.abort();
    await expect(second).rejects.toMatchObject({ name: "AbortError" });
    await new Promise((r) => setTimeout(r, 300));
    const t = performance.now();
    running.abort(new Error("caller gave up"));
    await expect(first).rejects.toThrow("caller gave up");
    expect(performance.now() - t).toBeLessThan(100); // rejected at once, not after the model run

    // The third job waited for the discarded run to finish (the limit holds), then completed.
    const r = await third;
    expect([r.width, r.height]).toEqual([451, 300]);
    expect(r.timingsMs.queue).toBeGreaterThan(1000);
  }, SLOW);
});
