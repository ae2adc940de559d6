import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { EnginePool } from "./engine-pool";
import { engineConfig } from "./engine-config";
import type { BgRemovalOptions } from "./types";

// Engines give memory back: an idle worker is ended (models released, thread
// stopped) after idleMs, and the next job starts a new one; kept warm, it stays.
const opts: BgRemovalOptions = { subjectType: "auto", edgeSoftness: 3, highDetail: false, background: "transparent" };
const SLOW = 180_000;
const image = () => sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } }).png().toBuffer();
const waitFor = async (cond: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!cond() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return cond();
};

describe("engine lifecycle", () => {
  it("ends an idle worker after idleMs and starts a new one for the next job", async () => {
    const pool = new EnginePool({ workers: 1, threads: 1, maxPixels: 1_000_000, idleMs: 300 });
    try {
      const first = await pool.run(await image(), opts);
      expect(first.width).toBe(64);
      expect(pool.liveWorkers).toBe(1);
      expect(await waitFor(() => pool.liveWorkers === 0, 5_000)).toBe(true);
      const second = await pool.run(await image(), opts);
      expect(second.height).toBe(48);
    } finally {
      await pool.close();
    }
  }, SLOW);

  it("keeps a warm worker when told to", async () => {
    const pool = new EnginePool({ workers: 1, threads: 1, maxPixels: 1_000_000, idleMs: 200, keepWarm: true });
    try {
      await pool.warmUp();
      await new Promise((r) => setTimeout(r, 800));
      expect(pool.liveWorkers).toBe(1);
    } finally {
      await pool.close();
    }
  }, SLOW);

  it("reads the settings: unload by default, BG_REMOVAL_KEEP_WARM and BG_REMOVAL_IDLE_SECONDS", () => {
    expect(engineConfig({})).toMatchObject({ keepWarm: false, idleMs: 60_000 });
    expect(engineConfig({ BG_REMOVAL_KEEP_WARM: "true", BG_REMOVAL_IDLE_SECONDS: "300" })).toMatchObject({ keepWarm: true, idleMs: 300_000 });
    expect(() => engineConfig({ BG_REMOVAL_KEEP_WARM: "maybe" })).toThrow(/BG_REMOVAL_KEEP_WARM/);
  });
});
