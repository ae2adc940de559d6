import { describe, expect, it } from "vitest";
import { keepPerson, PERSON_RULE } from "./person-matte";
import { drawnMattes } from "./drawn-mattes";

// rule.defocusFill on drawn mattes (no model), as person-ground.test.ts: a 200 x 120 frame where "ISNet", "the person
// model" and the photo's pixels are placed by hand. Unseen4 v103 drawn small: a sharp subject on the left, which ISNet
// keeps, and a second person behind her on the right, out of focus, which ISNet leaves out and the person model is sure
// of; her body runs out of the frame at the bottom, so the sure fill takes it as a body leaving the frame.
const W = 200, H = 120;
const { plane, inRect, matte, at } = drawnMattes(W, H);
// The core fill is off: in this small drawing its support, carried along the mask's rows, paints the person behind
// too, which on v103 it does not (there the sure fill alone adds her: sureFill 0 gives ISNet's 0.966). The defocus
// test judges the sure fill's pieces only.
const RULE = { ...PERSON_RULE, coreConfidence: 2 };

const subject = (x: number, y: number) => inRect(x, y, 30, 10, 120, 120);
const behind = (x: number, y: number) => inRect(x, y, 120, 30, 190, 120);
const people = () => plane((x, y) => (subject(x, y) || behind(x, y) ? 0.98 : 0.01));
/** Sharp stripes (4 px, a hard step) on the subject; on the person behind, `soft`: the same contrast as a smooth wave (blurred), or the hard stripes. */
const photo = (soft: boolean) => {
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const hard = x % 8 < 4 ? 200 : 60;
      const v = subject(x, y) ? hard : behind(x, y) ? (soft ? Math.round(130 + 70 * Math.sin((2 * Math.PI * x) / 16)) : hard) : 120;
      rgb.set([v, v, v], (y * W + x) * 3);
    }
  }
  return rgb;
};

describe("keepPerson: a person behind, out of focus (rule.defocusFill)", () => {
  it("leaves a blurred person behind the subject to ISNet, which the sure fill painted in (unseen4 v103)", async () => {
    const m = matte(subject);
    await keepPerson(m, people(), undefined, RULE, undefined, undefined, undefined, photo(true));
    expect(at(m, 170, 90)).toBeLessThan(0.5); // the person behind
    expect(at(m, 75, 60)).toBe(1); // the subject
    // The rule before (people18, defocusFill 0, and no softBehind, which came after): the person behind is painted solid.
    const before = matte(subject);
    await keepPerson(before, people(), undefined, { ...RULE, defocusFill: 0, softBehind: 0 }, undefined, undefined, undefined, photo(true));
    expect(at(before, 170, 90)).toBe(1);
  });

  it("fills a body ISNet missed that is as sharp as the subject", async () => {
    const m = matte(subject);
    await keepPerson(m, people(), undefined, RULE, undefined, undefined, undefined, photo(false));
    expect(at(m, 170, 90)).toBe(1);
  });

  it("fills a flat body (a plain dark jacket): too few edges to judge", async () => {
    const m = matte(subject);
    const rgb = photo(false);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (behind(x, y)) rgb.set([30, 30, 40], (y * W + x) * 3);
    await keepPerson(m, people(), undefined, RULE, undefined, undefined, undefined, rgb);
    expect(at(m, 170, 90)).toBe(1);
  });
});

// rule.softBehind on the same drawing, with the core fill on (as main ships it): it paints the person behind, as it painted
// unseen6 v191's soft child. defocusFill, which judges the sure fill's pieces only, is off, so what clears her is softBehind alone.
const CORE_ON = { ...PERSON_RULE, defocusFill: 0 };

describe("keepPerson: whatever the fills added, out of focus, goes back to ISNet (rule.softBehind)", () => {
  it("leaves a blurred person behind the subject to ISNet, which the core fill painted in (unseen6 v191)", async () => {
    const m = matte(subject);
    await keepPerson(m, people(), undefined, CORE_ON, undefined, undefined, undefined, photo(true));
    expect(at(m, 170, 90)).toBeLessThan(0.5); // the person behind
    expect(at(m, 75, 60)).toBe(1); // the subject
    const before = matte(subject);
    await keepPerson(before, people(), undefined, { ...CORE_ON, softBehind: 0 }, undefined, undefined, undefined, photo(true));
    expect(at(before, 170, 90)).toBe(1);
  });

  it("keeps a person the fills added who is as sharp as the subject", async () => {
    const m = matte(subject);
    await keepPerson(m, people(), undefined, CORE_ON, undefined, undefined, undefined, photo(false));
    expect(at(m, 170, 90)).toBe(1);
  });

  it("keeps a flat body (a plain dark jacket): too few edges to judge", async () => {
    const m = matte(subject);
    const rgb = photo(false);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (behind(x, y)) rgb.set([30, 30, 40], (y * W + x) * 3);
    await keepPerson(m, people(), undefined, CORE_ON, undefined, undefined, undefined, rgb);
    expect(at(m, 170, 90)).toBe(1);
  });
  it("keeps a blurred piece ISNet itself half kept: the subject's own faded part, not someone behind (unseen8 v259)", async () => {
    // ISNet keeps the blurred piece at 0.3 (a woman's back out of focus), sure of background nowhere on it.
    const faded = () => matte((x, y) => (subject(x, y) ? 1 : behind(x, y) ? 0.3 : 0));
    const m = faded();
    await keepPerson(m, people(), undefined, CORE_ON, undefined, undefined, undefined, photo(true));
    expect(at(m, 170, 90)).toBeGreaterThanOrEqual(0.5);
    // Without the gate (softBehindSure 0, as the nineteenth session measured softBehind) it goes back to ISNet's 0.3.
    const ungated = faded();
    await keepPerson(ungated, people(), undefined, { ...CORE_ON, softBehindSure: 0 }, undefined, undefined, undefined, photo(true));
    expect(at(ungated, 170, 90)).toBeLessThan(0.5);
  });
});
