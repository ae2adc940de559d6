import crypto from "node:crypto";
import sharp from "sharp";
import { fontFaces } from "@/lib/engines/pdf/card-fonts/fonts";

/** Longest side of a parent's preview: enough for a phone screen, never enough for a print. */
export const PREVIEW_MAX_PX = 1200;

export type Watermark = { text: string } | { logo: Buffer };

/**
 * The text as SVG outlines (fontkit, the cards' Noto Sans): librsvg would
 * otherwise depend on whatever fonts the server has installed, and a server
 * without any would draw no watermark at all.
 */
function textGlyphs(text: string, size: number): { svg: string; width: number } {
  const font = fontFaces()[0]!.font;
  const scale = size / font.unitsPerEm;
  const run = font.layout(text);
  let x = 0;
  const parts: string[] = [];
  run.glyphs.forEach((glyph, i) => {
    const pos = run.positions[i]!;
    const d = glyph.path.toSVG();
    // Font units, y up: placed and flipped by the transform.
    if (d) parts.push(`<path transform="translate(${(x + pos.xOffset * scale).toFixed(2)} ${(-pos.yOffset * scale).toFixed(2)}) scale(${scale.toFixed(5)} ${(-scale).toFixed(5)})" d="${d}"/>`);
    x += pos.xAdvance * scale;
  });
  return { svg: parts.join(""), width: x };
}

const escapeAttr = (s: string) => s.replace(/[^A-Za-z0-9 .,-]/g, "");

/** The text repeated diagonally across the whole picture, light with a dark edge, so no crop escapes it. */
function textOverlay(text: string, width: number, height: number): Buffer {
  const size = Math.max(18, Math.round(Math.min(width, height) / 14));
  const { svg: glyphs, width: textWidth } = textGlyphs(text, size);
  const stepX = Math.ceil(textWidth + size * 2);
  const stepY = Math.ceil(size * 3.2);
  const diagonal = Math.ceil(Math.hypot(width, height));
  const uses: string[] = [];
  for (let y = -diagonal; y < diagonal; y += stepY) {
    const shift = (Math.abs(y / stepY) % 2) * (stepX / 2);
    for (let x = -diagonal + shift; x < diagonal; x += stepX) uses.push(`<use href="#w" x="${Math.round(x)}" y="${Math.round(y)}"/>`);
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" aria-label="${escapeAttr(text)}">` +
    `<defs><g id="w">${glyphs}</g></defs>` +
    `<g transform="translate(${width / 2} ${height / 2}) rotate(-30)" fill="#ffffff" fill-opacity="0.38" stroke="#000000" stroke-opacity="0.28" stroke-width="${(Math.max(1, size / 28) * (fontFaces()[0]!.font.unitsPerEm / size)).toFixed(1)}">${uses.join("")}</g>` +
    `</svg>`;
  return Buffer.from(svg);
}

/** The logo at a third of the picture's width, centred, at 45% opacity. */
async function logoOverlay(logo: Buffer, width: number, height: number): Promise<Buffer> {
  const box = Math.max(32, Math.round(Math.min(width, height) / 2.2));
  const sized = await sharp(logo).rotate().resize(box, box, { fit: "inside" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { data, info } = sized;
  for (let i = 3; i < data.length; i += 4) data[i] = Math.round(data[i]! * 0.45);
  const png = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: png, gravity: "centre" }])
    .png()
    .toBuffer();
}

type RawOverlay = { data: Buffer; width: number; height: number };
/** Rasterised overlays by watermark and size: a job's photos mostly share one size, and drawing the SVG (librsvg) was most of a preview's time. */
const overlays = new Map<string, Promise<RawOverlay>>();
/** About 4 MB each at 1,200 × 900: a few sizes (landscape, portrait, a second camera) of one or two studios' marks. */
const MAX_OVERLAYS = 8;

function overlayOf(watermark: Watermark, width: number, height: number): Promise<RawOverlay> {
  const mark = "text" in watermark ? `t:${watermark.text}` : `l:${crypto.createHash("sha256").update(watermark.logo).digest("base64url")}`;
  const key = `${mark}:${width}x${height}`;
  let overlay = overlays.get(key);
  if (!overlay) {
    overlay = (async () => {
      const input = "text" in watermark ? textOverlay(watermark.text, width, height) : await logoOverlay(watermark.logo, width, height);
      const { data, info } = await sharp(input).resize(width, height, { fit: "fill" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height };
    })();
    overlays.set(key, overlay);
    // A failed drawing is not kept; the oldest entry leaves when the map is full.
    overlay.catch(() => overlays.delete(key));
    if (overlays.size > MAX_OVERLAYS) overlays.delete(overlays.keys().next().value!);
  }
  return overlay;
}

/**
 * A parent's preview of one photo: upright (EXIF applied), sRGB, at most
 * PREVIEW_MAX_PX a side, the studio's watermark drawn into the pixels, JPEG.
 * The original's metadata is not copied.
 */
export async function renderWatermarkedPreview(original: Buffer, watermark: Watermark): Promise<{ jpeg: Buffer; width: number; height: number }> {
  const resized = await sharp(original, { failOn: "none" })
    .rotate()
    .resize(PREVIEW_MAX_PX, PREVIEW_MAX_PX, { fit: "inside", withoutEnlargement: true })
    .toColourspace("srgb")
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = resized.info;
  const overlay = await overlayOf(watermark, width, height);
  const jpeg = await sharp(resized.data, { raw: { width, height, channels: resized.info.channels } })
    .composite([{ input: overlay.data, raw: { width: overlay.width, height: overlay.height, channels: 4 } }])
    .jpeg({ quality: 80, mozjpeg: false })
    .toBuffer();
  return { jpeg, width, height };
}
