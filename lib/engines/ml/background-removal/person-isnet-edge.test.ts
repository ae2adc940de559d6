import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE, type Box } from "./person-matte";
import { isnetEdgeReach, keepIsnetEdge } from "./isnet-edge";
import { drawnMattes } from "./drawn-mattes";
import { upsampleMatte } from "./pipeline";

// rule.isnetEdge on drawn mattes (no model), as pipeline.ts runs it after keepPerson: ISNet draws a body with a crisp
// edge and misses an arm held out; the person model (256 px, upsampled) is sure of both and overshoots the body's
// edge by 2 px all round. The sure fill adds the arm (which the rule needs) and, with it, that 2 px strip along
// ISNet's outline (which it does not: on photos ISNet already cuts well that strip cost 0.001-0.010 IoU, people19).
const W = 200, H = 160;
const { plane, inRect, matte, at } = drawnMattes(W, H);
const body = (x: number, y: number) => inRect(x, y, 60, 40, 140, 160);
const arm = (x: number, y: number) => inRect(x, y, 140, 60, 190, 72);
const person = () => plane((x, y) => (inRect(x, y, 58, 38, 142, 160) || arm(x, y) ? 0.97 : 0.01));
const closer = async (box: Box) => new Float32Array(box.width * box.height).fill(0.97);

async function cutOut(rule: typeof PERSON_RULE) {
  const m = matte(body);
  const isnet = new Float32Array(m.data);
  await keepPerson(m, person(), closer, rule);
  keepIsnetEdge(m, isnet, rule, isnetEdgeReach(W, H));
  return m;
}

describe("keepPerson then keepIsnetEdge: ISNet's own edge where the rule did not need to move it (rule.isnetEdge)", () => {
  it("keeps the arm the rule adds and gives the thin strip along ISNet's outline back to ISNet", async () => {
    const on = await cutOut({ ...PERSON_RULE, isnetEdge: 0.005 });
    expect(at(on, 165, 66)).toBe(1); // the arm ISNet missed: the rule's
    expect(at(on, 100, 100)).toBe(1); // the body
    expect(at(on, 59, 100)).toBe(0); // the strip beside the body's left edge, far from the arm: ISNet's
    expect(at(on, 100, 39)).toBe(0); // and above its top
    // Off (the rule as before): the strip is added with the arm.
    const off = await cutOut({ ...PERSON_RULE, isnetEdge: 0 });
    expect(at(off, 165, 66)).toBe(1);
    expect(at(off, 59, 100)).toBe(1);
  });

  it("keeps a thin piece the rule cleared apart from the person (a poster's letter), and a thick one", async () => {
    const letter = (x: number, y: number) => inRect(x, y, 10, 20, 12, 60); // 2 px wide, far from the person
    const block = (x: number, y: number) => inRect(x, y, 10, 100, 40, 140);
    const m = matte((x, y) => body(x, y) || letter(x, y) || block(x, y));
    const isnet = new Float32Array(m.data);
    const rule = { ...PERSON_RULE, isnetEdge: 0.005 };
    await keepPerson(m, plane((x, y) => (body(x, y) ? 0.97 : 0.01)), closer, rule);
    keepIsnetEdge(m, isnet, rule, isnetEdgeReach(W, H));
    expect(at(m, 11, 40)).toBe(0);
    expect(at(m, 25, 120)).toBe(0);
    expect(at(m, 100, 100)).toBe(1);
  });
});

// rule.guidedNearChanges (on since people19): on a photo at the working size, the guided filter only near the rule's own
// pieces. A low-contrast photo (flat grey) where ISNet drew a 2 px finger and the rule changed nothing: the guided filter
// everywhere (as before) blurs the finger away, ISNet's own matte keeps it.
describe("upsampleMatte with the weight of the rule's changes (rule.guidedNearChanges)", () => {
  const finger = (x: number, y: number) => inRect(x, y, 60, 40, 140, 160) || inRect(x, y, 140, 80, 170, 82);
  const img = { rgba: Buffer.alloc(W * H * 4, 128), width: W, height: H, hasAlpha: false };
  async function upsampled(rule: typeof PERSON_RULE) {
    const m = matte(finger);
    const isnet = new Float32Array(m.data);
    const weight = keepIsnetEdge(m, isnet, rule, isnetEdgeReach(W, H));
    return upsampleMatte(m, img, true, rule.guidedNearChanges ? weight : undefined);
  }

  it("keeps ISNet's thin finger where the rule changed nothing (the default), and the guided filter everywhere loses it", async () => {
    const on = await upsampled(PERSON_RULE);
    expect(on[81 * W + 160]).toBe(255);
    expect(on[100 * W + 100]).toBe(255);
    const off = await upsampled({ ...PERSON_RULE, guidedNearChanges: false });
    expect(off[81 * W + 160]!).toBeLessThan(128);
    expect(off[100 * W + 100]).toBe(255);
  });
});
