// The product / logo / text regression set for background removal: every image is
// built here from SVG, so its reference matte is exact (the foreground layer's own
// alpha), and nothing is downloaded. Backgrounds are a studio sweep, flat colours,
// paper, and a blurred real photo (coffee.png, CC0, already a project fixture), so
// the model also sees texture. Used by bench/bg-quality-bench.ts and the CI test.
import path from "node:path";
import sharp from "sharp";
import type { SubjectType } from "@/lib/engines/ml/background-removal";

export type RegressionCase = { name: string; subjectType: SubjectType; image: Buffer; alpha: Uint8Array; width: number; height: number };

const W = 800;
const H = 600;
const COFFEE = path.resolve("lib/engines/ml/background-removal/fixtures/coffee.png");

const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${body}</svg>`);

const backgrounds = {
  sweep: () => sharp(svg(`<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f4f4f2"/><stop offset="1" stop-color="#c9c9c4"/></linearGradient></defs><rect width="${W}" height="${H}" fill="url(#g)"/>`)).png().toBuffer(),
  white: () => sharp(svg(`<rect width="${W}" height="${H}" fill="#ffffff"/>`)).png().toBuffer(),
  teal: () => sharp(svg(`<rect width="${W}" height="${H}" fill="#2a7f86"/>`)).png().toBuffer(),
  paper: () => sharp(svg(`<rect width="${W}" height="${H}" fill="#f3ecd9"/>`)).png().toBuffer(),
  photo: () => sharp(COFFEE).resize(W, H, { fit: "cover" }).blur(12).png().toBuffer(),
};

const foregrounds: { name: string; subjectType: SubjectType; bg: keyof typeof backgrounds; body: string }[] = [
  {
    name: "product-bottle",
    subjectType: "product",
    bg: "sweep",
    body: `<defs><linearGradient id="b" x1="0" x2="1"><stop offset="0" stop-color="#1d5e2b"/><stop offset="0.45" stop-color="#4fae62"/><stop offset="1" stop-color="#173f20"/></linearGradient></defs>
      <path d="M370 90 h60 v70 q70 40 70 120 v230 q0 20 -20 20 h-160 q-20 0 -20 -20 v-230 q0 -80 70 -120 z" fill="url(#b)"/>
      <rect x="320" y="300" width="160" height="120" fill="#ffffff"/><text x="400" y="370" font-family="sans-serif" font-size="34" text-anchor="middle" fill="#222">OLIVE</text>`,
  },
  {
    name: "product-mug",
    subjectType: "product",
    bg: "photo",
    body: `<path d="M250 180 h260 v260 q0 40 -40 40 h-180 q-40 0 -40 -40 z" fill="#d9452b"/>
      <path d="M510 230 q110 0 110 90 q0 90 -110 90 v-40 q70 0 70 -50 q0 -50 -70 -50 z" fill="#d9452b"/>`,
  },
  {
    name: "product-box",
    subjectType: "product",
    bg: "white",
    body: `<polygon points="250,200 450,150 600,220 400,280" fill="#e8c27a"/><polygon points="250,200 400,280 400,500 250,420" fill="#c99a45"/>
      <polygon points="400,280 600,220 600,440 400,500" fill="#b07f2c"/><rect x="430" y="320" width="120" height="50" fill="#ffffff" transform="skewY(-16) translate(0,130)"/>`,
  },
  {
    name: "logo-ring",
    subjectType: "logo",
    bg: "white",
    body: `<circle cx="300" cy="300" r="150" fill="#1b3a8c"/><circle cx="300" cy="300" r="80" fill="#ffffff" fill-opacity="0"/>
      <path d="M300 150 a150 150 0 1 1 -0.1 0 z M300 220 a80 80 0 1 0 0.1 0 z" fill="#1b3a8c" fill-rule="evenodd"/>
      <text x="480" y="330" font-family="sans-serif" font-weight="bold" font-size="90" fill="#1b3a8c">ORBIT</text>`,
  },
  {
    name: "logo-on-colour",
    subjectType: "logo",
    bg: "teal",
    body: `<polygon points="400,110 560,420 240,420" fill="#ffd23f"/><text x="400" y="520" font-family="serif" font-size="70" text-anchor="middle" fill="#ffd23f">Peak Co.</text>`,
  },
  {
    name: "text-headline",
    subjectType: "text",
    bg: "paper",
    body: `<text x="60" y="250" font-family="serif" font-weight="bold" font-size="110" fill="#111">Summer Sale</text>
      <text x="60" y="400" font-family="sans-serif" font-size="80" fill="#b3261e">up to 40% off</text>`,
  },
];

/** Builds the set (about 0.5 MP each), in a fixed order. */
export async function regressionSet(): Promise<RegressionCase[]> {
  const out: RegressionCase[] = [];
  for (const f of foregrounds) {
    // The foreground layer alone; where it has ink that ink is drawn (fill-opacity 0 parts stay transparent).
    const layer = await sharp(svg(f.body)).ensureAlpha().png().toBuffer();
    const image = await sharp(await backgrounds[f.bg]()).composite([{ input: layer }]).jpeg({ quality: 92 }).toBuffer();
    const alpha = new Uint8Array(await sharp(layer).extractChannel(3).raw().toBuffer());
    out.push({ name: f.name, subjectType: f.subjectType, image, alpha, width: W, height: H });
  }
  return out;
}
