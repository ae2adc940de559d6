import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";

// rule.groundColour on drawn mattes (no model), as person-detached.test.ts: a 200 x 120 frame where "ISNet", "the
// person model" and the photo's colours are placed by hand. Unseen3 v77 drawn small: a boy lying on his side in grass;
// ISNet finds his head and his lying body (a white shirt), the person model is sure of him and of the grass below him
// down to the frame's bottom (its 256 px overshoot), which the core fill paints solid (his body above it on both sides).
const W = 200, H = 120;
const { plane, inRect, matte, at } = drawnMattes(W, H);
const colours = (f: (x: number, y: number) => [number, number, number]) => {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.set(f(x, y), (y * W + x) * 3);
  return rgb;
};
const RULE = PERSON_RULE;

const head = (x: number, y: number) => inRect(x, y, 140, 20, 166, 46);
const body = (x: number, y: number) => inRect(x, y, 30, 46, 170, 76);
const boy = (x: number, y: number) => head(x, y) || body(x, y);
const spill = () => plane((x, y) => (inRect(x, y, 137, 17, 169, 46) || inRect(x, y, 27, 43, 173, 79) || inRect(x, y, 40, 79, 160, 120) ? 0.98 : 0.01));
const grass = () => colours((x, y) => (head(x, y) ? [210, 160, 130] : body(x, y) ? [240, 240, 240] : [60, 170, 50]));

describe("keepPerson: the ground under a person lying low (rule.groundColour)", () => {
  it("leaves the grass under a lying boy to ISNet, which the core fill painted solid (unseen3 v77)", async () => {
    const m = matte(boy);
    await keepPerson(m, spill(), undefined, RULE, undefined, undefined, undefined, grass());
    expect(at(m, 100, 100)).toBeLessThan(0.5); // the grass
    expect(at(m, 100, 118)).toBeLessThan(0.5);
    expect(at(m, 100, 60)).toBe(1); // the boy
    expect(at(m, 150, 30)).toBe(1);
    // The rule before (people17, groundColour 0): the grass is painted solid.
    const before = matte(boy);
    await keepPerson(before, spill(), undefined, { ...RULE, groundColour: 0 }, undefined, undefined, undefined, grass());
    expect(at(before, 100, 100)).toBe(1);
  });

  it("keeps a dark jacket ISNet missed below a head, running out of the frame, in the person's own colours", async () => {
    // A head and the shoulders' top ISNet found; the jacket below them ISNet missed, down to the frame's bottom, on a grey wall.
    const face = (x: number, y: number) => inRect(x, y, 85, 10, 115, 40);
    const shoulders = (x: number, y: number) => inRect(x, y, 60, 40, 140, 52);
    const jacket = (x: number, y: number) => inRect(x, y, 60, 40, 140, 120);
    const m = matte((x, y) => face(x, y) || shoulders(x, y));
    const rgb = colours((x, y) => (face(x, y) ? [210, 160, 130] : jacket(x, y) ? [30, 30, 70] : [100, 100, 100]));
    await keepPerson(m, plane((x, y) => (face(x, y) || jacket(x, y) ? 0.98 : 0.01)), undefined, RULE, undefined, undefined, undefined, rgb);
    expect(at(m, 100, 100)).toBe(1);
    expect(at(m, 100, 70)).toBe(1);
  });

  it("keeps a standing man's light jeans ISNet missed under his jacket, in the bright path's colours (unseen5 v150)", async () => {
    // A tall frame: his head and dark jacket ISNet found, his light jeans below it ISNet missed, down to the frame's bottom.
    const T = drawnMattes(120, 200);
    const face = (x: number, y: number) => T.inRect(x, y, 50, 10, 70, 35);
    const jacket = (x: number, y: number) => T.inRect(x, y, 30, 35, 90, 120);
    const jeans = (x: number, y: number) => T.inRect(x, y, 40, 120, 80, 200);
    const rgb = new Uint8Array(120 * 200 * 3);
    for (let y = 0; y < 200; y++) for (let x = 0; x < 120; x++) rgb.set(face(x, y) ? [200, 150, 120] : jacket(x, y) ? [50, 55, 35] : jeans(x, y) ? [226, 229, 240] : [228, 230, 234], (y * 120 + x) * 3);
    const man = () => T.plane((x, y) => (face(x, y) || jacket(x, y) || jeans(x, y) ? 0.98 : 0.01));
    const m = T.matte((x, y) => face(x, y) || jacket(x, y));
    await keepPerson(m, man(), undefined, RULE, undefined, undefined, undefined, rgb);
    expect(T.at(m, 60, 160)).toBe(1); // the jeans
    // Without the lying person's shape (groundLying 0, as people18 measured it) the jeans are cleared as ground.
    const anyShape = T.matte((x, y) => face(x, y) || jacket(x, y));
    await keepPerson(anyShape, man(), undefined, { ...RULE, groundLying: 0 }, undefined, undefined, undefined, rgb);
    expect(T.at(anyShape, 60, 160)).toBeLessThan(0.5);
  });
});
