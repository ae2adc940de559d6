import type { PdfAnalysis, PdfPageAnalysis } from "@/lib/engines/pdf/analyze-pdf";
import type { Box, PaintedObject } from "@/lib/engines/pdf/content-walker";
import { rectHeight, rectWidth, type Rect } from "@/lib/engines/pdf/page-boxes";
import type { PreflightFileFacts } from "@/lib/foundation/db/schema/preflight";
import { SAFE_MARGIN_MM } from "./safe-margin";
import { fmtInt, fmtNum, makeIssue, resolutionSeverity, type CheckTargets, type PreflightIssue } from "./issue";
import { meetsResolution, shownPpi } from "./tolerances";

const PT_PER_INCH = 72;
const MM_PER_PT = 25.4 / 72;
/** Page sizes within a point (or 0.2%) of each other are the same size: exports round boxes. */
const SIZE_TOLERANCE_PT = 1;
/** A bleed short by less than a quarter point (0.09 mm) is rounding, not missing bleed. */
const BLEED_TOLERANCE_PT = 0.25;
/** Images under this many pixels on a side are fills or gradient strips, where resolution means nothing. */
const MIN_IMAGE_SIDE_PX = 8;
/** Page boxes kept in the report for the viewer (a 2,000-page report stays small). */
const MAX_PAGES_IN_FACTS = 500;
/** Object boxes listed in one issue's details for the viewer. */
const MAX_BOXES_PER_ISSUE = 50;

/**
 * The preflight rules for PDFs, from the engine's per-page findings. Every
 * issue names its page and, where there is one, the box on it (PDF points in
 * the page's user space, origin bottom-left).
 */
export function pdfIssues(a: PdfAnalysis, t: CheckTargets): { issues: PreflightIssue[]; facts: PreflightFileFacts } {
  switch (a.kind) {
    case "unreadable":
      return { facts: {}, issues: [makeIssue("file_corrupt", "error", "The PDF could not be read: it is damaged or incomplete. Export it again.", { details: { reason: a.reason } })] };
    case "encrypted":
      return {
        facts: a.pageCount ? { pageCount: a.pageCount } : {},
        issues: [
          makeIssue("pdf_encrypted", "error", "The PDF is encrypted (a password or security restrictions), so its content cannot be checked or printed reliably. Save it again without security.", {
            details: { pageCount: a.pageCount ?? null },
          }),
        ],
      };
    case "too_many_pages":
      return {
        facts: { pageCount: a.pageCount },
        issues: [makeIssue("too_many_pages", "error", `The PDF has ${fmtInt(a.pageCount)} pages; preflight checks documents of up to ${fmtInt(a.maxPages)} pages.`, { details: { pageCount: a.pageCount, maxPages: a.maxPages } })],
      };
    case "too_complex":
      return {
        facts: {},
        issues: [makeIssue("content_too_complex", "error", `Page ${a.page} is too complex to check: ${a.reason}. Simplify or flatten it.`, { page: a.page, details: { reason: a.reason } })],
      };
  }

  const issues: PreflightIssue[] = [];
  for (const p of a.pages) {
    for (const reason of p.damaged) {
      issues.push(makeIssue("file_corrupt", "error", `Page ${p.page} is damaged: part of its content cannot be read, so parts of it may not print. Export the PDF again.`, { page: p.page, details: { reason } }));
    }
    const { trim, bleedSides } = effectiveTrim(p, t);
    issues.push(...boxIssues(p, t, trim, bleedSides));
    issues.push(...placementIssues(p, trim));
    issues.push(...imageIssues(p, t));
    issues.push(...colorIssues(p, t));
    if (p.transparency.length > 0) issues.push(transparencyIssue(p));
  }
  issues.push(...fontIssues(a.pages));
  const mixed = mixedSizes(a.pages);
  if (mixed) issues.push(mixed);

  const facts: PreflightFileFacts = {
    pageCount: a.pageCount,
    pages: a.pages.slice(0, MAX_PAGES_IN_FACTS).map((p) => ({ page: p.page, mediaBox: p.boxes.mediaBox, trimBox: p.boxes.trimBox, bleedBox: p.boxes.bleedBox })),
  };
  return { issues, facts };
}

/** Trim size as it is seen (after /Rotate), in points. */
function displayedTrim(p: PdfPageAnalysis): { w: number; h: number } {
  const w = rectWidth(p.boxes.trimBox);
  const h = rectHeight(p.boxes.trimBox);
  return p.boxes.rotate % 180 === 0 ? { w, h } : { w: h, h: w };
}

/** Where the page is cut: its TrimBox, or for a page exported at canvas + bleed without one, the centred canvas. */
function effectiveTrim(p: PdfPageAnalysis, t: CheckTargets): { trim: Rect; bleedSides: ReturnType<typeof sides> } {
  const { boxes } = p;
  const requiredPt = t.bleedMm && t.bleedMm > 0 ? t.bleedMm / MM_PER_PT : 0;
  if (!boxes.hasTrimBox && t.canvas && requiredPt > 0) {
    const media = displayedTrim(p);
    const expected = { w: t.canvas.widthIn * PT_PER_INCH + 2 * requiredPt, h: t.canvas.heightIn * PT_PER_INCH + 2 * requiredPt };
    if (sameSize(media, expected)) {
      const [x0, y0, x1, y1] = boxes.cropBox;
      const trim: Rect = [x0 + requiredPt, y0 + requiredPt, x1 - requiredPt, y1 - requiredPt];
      return { trim, bleedSides: sides(trim, boxes.cropBox) };
    }
  }
  return { trim: boxes.trimBox, bleedSides: sides(boxes.trimBox, boxes.bleedBox) };
}

function boxIssues(p: PdfPageAnalysis, t: CheckTargets, trim: Rect, bleedSides: ReturnType<typeof sides>): PreflightIssue[] {
  const issues: PreflightIssue[] = [];
  const { boxes } = p;
  const requiredPt = t.bleedMm && t.bleedMm > 0 ? t.bleedMm / MM_PER_PT : 0;

  if (t.canvas) {
    const w = rectWidth(trim);
    const h = rectHeight(trim);
    const seen = boxes.rotate % 180 === 0 ? { w, h } : { w: h, h: w };
    const canvas = { w: t.canvas.widthIn * PT_PER_INCH, h: t.canvas.heightIn * PT_PER_INCH };
    if (!sameSize(seen, canvas)) {
      const rotated = sameSize({ w: seen.h, h: seen.w }, canvas);
      issues.push(
        makeIssue(
          "page_size_mismatch",
          "error",
          `Page ${p.page} is ${inches(seen.w)} x ${inches(seen.h)} in${boxes.hasTrimBox ? " (trim box)" : ""}; the canvas is ${fmtNum(t.canvas.widthIn)} x ${fmtNum(t.canvas.heightIn)} in${rotated ? " (the page is turned the other way)" : ""}.`,
          {
            page: p.page,
            box: boxOf(trim),
            details: { pageWidthInches: round2(seen.w / PT_PER_INCH), pageHeightInches: round2(seen.h / PT_PER_INCH), canvasWidthInches: t.canvas.widthIn, canvasHeightInches: t.canvas.heightIn, rotated },
          },
        ),
      );
    }
  }

  if (requiredPt > 0) {
    const short = (Object.entries(bleedSides) as [keyof typeof bleedSides, number][]).filter(([, v]) => v < requiredPt - BLEED_TOLERANCE_PT);
    if (short.length > 0) {
      const mm = Object.fromEntries(Object.entries(bleedSides).map(([k, v]) => [k, round2(Math.max(0, v) * MM_PER_PT)])) as Record<keyof typeof bleedSides, number>;
      const what = short.length === 4 && new Set(short.map(([, v]) => round2(v))).size === 1 ? `${fmtNum(mm.left)} mm of bleed on every side` : `bleed of ${short.map(([k]) => `${fmtNum(mm[k])} mm ${SIDE_NAMES[k]}`).join(", ")}`;
      issues.push(
        makeIssue("missing_bleed", "error", `Page ${p.page} has ${what}; ${fmtNum(t.bleedMm!)} mm required on every side.`, {
          page: p.page,
          box: boxOf(trim),
          details: { requiredMm: t.bleedMm, bleedMm: mm, hasTrimBox: boxes.hasTrimBox, hasBleedBox: boxes.hasBleedBox },
          fixTypes: ["add_bleed"],
        }),
      );
    }
  }
  return issues;
}

const SIDE_NAMES = { left: "left", right: "right", top: "top", bottom: "bottom" } as const;

/** How far the bleed box reaches beyond the trim box on each side, in points. */
function sides(trim: Rect, bleed: Rect) {
  return { left: trim[0] - bleed[0], bottom: trim[1] - bleed[1], right: bleed[2] - trim[2], top: bleed[3] - trim[3] };
}

function imageIssues(p: PdfPageAnalysis, t: CheckTargets): PreflightIssue[] {
  const issues: PreflightIssue[] = [];
  const seen = new Set<string>();
  const media = p.boxes.mediaBox;
  for (const img of p.images) {
    if (Math.min(img.widthPx, img.heightPx) < MIN_IMAGE_SIDE_PX) continue;
    // Placed entirely off the page: it never prints.
    if (img.box.x >= media[2] || img.box.y >= media[3] || img.box.x + img.box.width <= media[0] || img.box.y + img.box.height <= media[1]) continue;
    const ppi = Math.min(img.ppiX, img.ppiY);
    if (meetsResolution(ppi, t.requiredDpi)) continue;
    const key = `${img.objectNumber ?? img.name}:${Math.round(ppi)}:${Math.round(img.box.x)}:${Math.round(img.box.y)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const placed = `${inches(img.placedWidthPt)} x ${inches(img.placedHeightPt)} in`;
    issues.push(
      makeIssue("low_resolution", resolutionSeverity(ppi, t.requiredDpi), `Image on page ${p.page} is ${fmtInt(shownPpi(ppi, t.requiredDpi))} ppi at its placed size (${placed}); ${fmtInt(t.requiredDpi)} ppi required.`, {
        page: p.page,
        box: { x: round2(img.box.x), y: round2(img.box.y), width: round2(img.box.width), height: round2(img.box.height), unit: "pt" },
        details: {
          image: img.name,
          objectNumber: img.objectNumber ?? null,
          widthPx: img.widthPx,
          heightPx: img.heightPx,
          placedWidthInches: round2(img.placedWidthPt / PT_PER_INCH),
          placedHeightInches: round2(img.placedHeightPt / PT_PER_INCH),
          effectivePpi: round1(ppi),
          ppiX: round1(img.ppiX),
          ppiY: round1(img.ppiY),
          requiredDpi: t.requiredDpi,
          placement: img.context,
        },
      }),
    );
  }
  return issues;
}

function colorIssues(p: PdfPageAnalysis, t: CheckTargets): PreflightIssue[] {
  const issues: PreflightIssue[] = [];
  const required = t.requiredColorMode;
  const byFamily = (families: string[]) => p.colors.filter((c) => families.includes(c.family));
  const box = boxOf(p.boxes.cropBox);
  // In a customer's words: where the colour is used, not which colour space object (that is in details).
  const describe = (cs: typeof p.colors) => {
    const where = new Set(cs.flatMap((c) => c.sources.map(plainSource)));
    return [...where].join(", ");
  };
  const details = (cs: typeof p.colors, extra: Record<string, unknown> = {}) => ({ requiredColorMode: required ?? null, colorSpaces: cs.map((c) => ({ label: c.label, family: c.family, sources: c.sources })), ...extra });

  if (required === "cmyk") {
    const rgb = byFamily(["rgb", "lab"]);
    if (rgb.length > 0) {
      issues.push(
        makeIssue("color_mode_mismatch", "error", `Page ${p.page} uses RGB colour (in ${describe(rgb)}); this product prints in CMYK, so those colours will shift when converted.`, {
          page: p.page,
          box,
          details: details(rgb, { prepressFix: "rgb_to_cmyk" }),
          fixTypes: ["convert_color_mode"],
        }),
      );
    }
  } else if (required === "rgb") {
    const cmyk = byFamily(["cmyk"]);
    if (cmyk.length > 0) issues.push(makeIssue("color_mode_mismatch", "warning", `Page ${p.page} uses CMYK colour (in ${describe(cmyk)}); this product prints from RGB.`, { page: p.page, box, details: details(cmyk) }));
  } else if (required === "grayscale") {
    const colour = byFamily(["rgb", "cmyk", "lab", "spot"]);
    if (colour.length > 0) {
      issues.push(makeIssue("color_mode_mismatch", "warning", `Page ${p.page} uses colour (in ${describe(colour)}); this product prints in greys only, so it will print in grey.`, { page: p.page, box, details: details(colour) }));
    }
  }

  const spots = byFamily(["spot"]);
  if (spots.length > 0 && required !== "grayscale") {
    const names = [...new Set(spots.flatMap((s) => s.spotNames ?? []))];
    const list = names.map((n) => `"${n}"`).join(", ");
    const plural = names.length > 1 ? "spot colours" : "spot colour";
    if (required === "cmyk") {
      issues.push(
        makeIssue("spot_color", "warning", `Page ${p.page} uses the ${plural} ${list}; CMYK is required, so ${names.length > 1 ? "they" : "it"} will be printed as a process (CMYK) mix.`, {
          page: p.page,
          box,
          details: details(spots, { spotNames: names, prepressFix: "rgb_to_cmyk" }),
          fixTypes: ["convert_color_mode"],
        }),
      );
    } else {
      issues.push(
        makeIssue("spot_color", "info", `Page ${p.page} uses the ${plural} ${list}; unless your printer prints spot inks, ${names.length > 1 ? "they are" : "it is"} printed as a process (CMYK) mix.`, {
          page: p.page,
          box,
          details: details(spots, { spotNames: names }),
        }),
      );
    }
  }
  return issues;
}

/** One issue per font that shows visible text without being embedded, at the first page using it. */
function fontIssues(pages: PdfPageAnalysis[]): PreflightIssue[] {
  const fonts = new Map<string, { subtype: string; pages: number[] }>();
  for (const p of pages) {
    for (const f of p.fonts) {
      if (f.embedded) continue;
      const entry = fonts.get(f.name) ?? { subtype: f.subtype, pages: [] };
      if (entry.pages.at(-1) !== p.page) entry.pages.push(p.page);
      fonts.set(f.name, entry);
    }
  }
  return [...fonts].map(([name, f]) => {
    // The text runs set in this font, on the pages that use it: where the substitution would show.
    const runs = pages.filter((p) => f.pages.includes(p.page)).flatMap((p) => p.objects.filter((o) => o.kind === "text" && o.font === name && o.context !== "pattern").map((o) => ({ page: p.page, o })));
    const first = runs.filter((r) => r.page === f.pages[0]).map((r) => r.o.box);
    return makeIssue(
      "font_not_embedded",
      "error",
      `The font "${name}" is not included in the file (used on ${pageList(f.pages)}); the printer would print that text in another font, changing its look and line breaks.`,
      {
        page: f.pages[0],
        ...(first.length > 0 ? { box: boxOfBox(union(first)) } : {}),
        details: { font: name, subtype: f.subtype, pages: f.pages.slice(0, 200), pageCount: f.pages.length, prepressFix: "embed_fonts", boxes: runs.slice(0, MAX_BOXES_PER_ISSUE).map((r) => ({ page: r.page, ...boxOfBox(r.o.box), ...(r.o.text ? { text: r.o.text } : {}) })) },
      },
    );
  });
}

/** One issue per page with transparency, boxed around the transparent objects themselves (each listed for the viewer). */
function transparencyIssue(p: PdfPageAnalysis): PreflightIssue {
  const objects = p.objects.filter((o) => o.transparency && o.context !== "pattern");
  const n = objects.length;
  const what = n === 0 ? "transparent (see-through) effects" : n === 1 ? `a transparent (see-through) ${objectNoun(objects[0]!)}` : `${fmtInt(n)} transparent (see-through) objects`;
  return makeIssue("transparency", "warning", `Page ${p.page} has ${what}; printers that need flattened files may print ${n === 1 ? "it" : "them"} differently (colours or edges can change).`, {
    page: p.page,
    box: n > 0 ? boxOfBox(union(objects.map((o) => o.box))) : boxOf(p.boxes.cropBox),
    details: {
      sources: p.transparency,
      prepressFix: "flatten_transparency",
      boxes: objects.slice(0, MAX_BOXES_PER_ISSUE).map((o) => ({ page: p.page, ...boxOfBox(o.box), kind: o.kind, source: o.transparency })),
    },
    fixTypes: ["remove_transparency"],
  });
}

function objectNoun(o: PaintedObject): string {
  return o.kind === "text" ? "text" : o.kind === "image" ? "image" : "shape";
}

type Side = "left" | "right" | "top" | "bottom";

/**
 * Text and artwork that the cut would touch: beyond the trim (cut off), or
 * inside the trim but closer to it than the safe margin. Artwork that runs on
 * to the bleed edge, or up to the trim edge, is meant to bleed and is left alone, as are page-wide
 * shapes (backgrounds, frames, rules) and anything entirely outside the trim.
 */
function placementIssues(p: PdfPageAnalysis, trim: Rect): PreflightIssue[] {
  const safePt = SAFE_MARGIN_MM / MM_PER_PT;
  const [tx0, ty0, tx1, ty1] = trim;
  const tw = tx1 - tx0;
  const th = ty1 - ty0;
  const [bx0, by0, bx1, by1] = p.boxes.bleedBox;
  const out: { kind: "text" | "vector"; severity: "error" | "warning"; code: "content_outside_trim" | "content_in_safe_margin"; side: Side; by: number; box: Box; text?: string }[] = [];
  for (const o of p.objects) {
    if (o.context === "pattern" || o.kind === "image") continue;
    const { x, y, width, height } = o.box;
    if (width <= 0.01 && height <= 0.01) continue;
    const x1 = x + width;
    const y1 = y + height;
    // Entirely outside the trim: never part of the printed piece (slug, bleed extension, pasteboard).
    if (x >= tx1 || x1 <= tx0 || y >= ty1 || y1 <= ty0) continue;
    if (o.kind === "vector" && (width >= 0.9 * tw || height >= 0.9 * th)) continue;
    const beyond: Record<Side, number> = { left: tx0 - x, right: x1 - tx1, bottom: ty0 - y, top: y1 - ty1 };
    const reachesBleed: Record<Side, boolean> = { left: x <= bx0 + 0.5 && bx0 < tx0 - 0.5, right: x1 >= bx1 - 0.5 && bx1 > tx1 + 0.5, bottom: y <= by0 + 0.5 && by0 < ty0 - 0.5, top: y1 >= by1 - 0.5 && by1 > ty1 + 0.5 };
    const sidesOut = (Object.keys(beyond) as Side[]).filter((k) => beyond[k] > 0.5 && !(o.kind === "vector" && reachesBleed[k]));
    if (sidesOut.length > 0) {
      const side = sidesOut.reduce((a, b) => (beyond[b] > beyond[a] ? b : a));
      out.push({ kind: o.kind, severity: o.kind === "text" ? "error" : "warning", code: "content_outside_trim", side, by: beyond[side], box: o.box, text: o.text });
      continue;
    }
    // Inside the trim: how close to each edge.
    const gap: Record<Side, number> = { left: x - tx0, right: tx1 - x1, bottom: y - ty0, top: ty1 - y1 };
    // Artwork that reaches the trim edge is meant to run off it (bleed art: whether the bleed is there is
    // missing_bleed's question), not a logo or a rule placed too close to the cut.
    const close = (Object.keys(gap) as Side[]).filter((k) => gap[k] < safePt - 0.25 && !(o.kind === "vector" && (gap[k] <= 0.5 || (beyond[k] > -0.5 && reachesBleed[k]))));
    if (close.length > 0) {
      const side = close.reduce((a, b) => (gap[b] < gap[a] ? b : a));
      out.push({ kind: o.kind, severity: "warning", code: "content_in_safe_margin", side, by: Math.max(0, gap[side]), box: o.box, text: o.text });
    }
  }
  // Runs of one line (a word per Tj) and adjoining shapes make one finding each.
  const merged: typeof out = [];
  for (const f of out) {
    const m = merged.find((g) => g.code === f.code && g.kind === f.kind && g.side === f.side && near(g.box, f.box));
    if (m) {
      m.box = union([m.box, f.box]);
      m.by = f.code === "content_outside_trim" ? Math.max(m.by, f.by) : Math.min(m.by, f.by);
      if (f.text) m.text = m.text ? `${m.text} ${f.text}`.slice(0, 80) : f.text;
    } else merged.push({ ...f });
  }
  return merged.map((f) => {
    const what = f.kind === "text" ? (f.text ? `Text "${shorten(f.text)}"` : "Text") : "Artwork";
    const edge = SIDE_EDGE[f.side];
    const mm = fmtNum(round1(f.by * MM_PER_PT));
    const message =
      f.code === "content_outside_trim"
        ? `${what} on page ${p.page} runs ${mm} mm past the ${edge}, where the page is cut: that part will be cut off.`
        : `${what} on page ${p.page} is ${mm} mm from the ${edge}; keep it at least ${SAFE_MARGIN_MM} mm inside so a slightly-off cut cannot touch it.`;
    return makeIssue(f.code, f.severity, message, {
      page: p.page,
      box: boxOfBox(f.box),
      details: { object: f.kind, side: f.side, distanceMm: round2(f.by * MM_PER_PT), safeMarginMm: SAFE_MARGIN_MM, trimBox: trim.map(round2), ...(f.text ? { text: f.text } : {}) },
    });
  });
}

const SIDE_EDGE: Record<Side, string> = { left: "left edge", right: "right edge", top: "top edge", bottom: "bottom edge" };

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function near(a: Box, b: Box): boolean {
  const gap = 3;
  return a.x <= b.x + b.width + gap && b.x <= a.x + a.width + gap && a.y <= b.y + b.height + gap && b.y <= a.y + a.height + gap;
}

function union(boxes: Box[]): Box {
  const x0 = Math.min(...boxes.map((b) => b.x));
  const y0 = Math.min(...boxes.map((b) => b.y));
  const x1 = Math.max(...boxes.map((b) => b.x + b.width));
  const y1 = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

function boxOfBox(b: Box) {
  return { x: round2(b.x), y: round2(b.y), width: round2(b.width), height: round2(b.height), unit: "pt" as const };
}

function mixedSizes(pages: PdfPageAnalysis[]): PreflightIssue | undefined {
  const groups: { w: number; h: number; pages: number[] }[] = [];
  for (const p of pages) {
    const size = displayedTrim(p);
    const g = groups.find((x) => sameSize(x, size));
    if (g) g.pages.push(p.page);
    else groups.push({ ...size, pages: [p.page] });
  }
  if (groups.length < 2) return undefined;
  const first = groups[1]!.pages[0]!;
  const described = groups
    .slice(0, 5)
    .map((g) => `${inches(g.w)} x ${inches(g.h)} in (${pageList(g.pages)})`)
    .join(", ");
  return makeIssue("mixed_page_sizes", "warning", `The document mixes ${groups.length} page sizes: ${described}${groups.length > 5 ? " …" : ""}.`, {
    page: first,
    details: { sizes: groups.map((g) => ({ widthInches: round2(g.w / PT_PER_INCH), heightInches: round2(g.h / PT_PER_INCH), pages: g.pages.slice(0, 200), pageCount: g.pages.length })) },
  });
}

function sameSize(a: { w: number; h: number }, b: { w: number; h: number }): boolean {
  const tol = (x: number) => Math.max(SIZE_TOLERANCE_PT, x * 0.002);
  return Math.abs(a.w - b.w) <= tol(b.w) && Math.abs(a.h - b.h) <= tol(b.h);
}

/** "page 3", "pages 1–3, 7" (ranges collapsed, long lists shortened). */
function pageList(pages: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j]! + 1) j++;
    ranges.push(i === j ? `${pages[i]}` : `${pages[i]}–${pages[j]}`);
    i = j;
  }
  const shown = ranges.length > 6 ? `${ranges.slice(0, 6).join(", ")} …` : ranges.join(", ");
  return `${pages.length === 1 ? "page" : "pages"} ${shown}`;
}

/** "fill colour", "image Im3", "shading Sh0" ... as a customer would say it. */
function plainSource(source: string): string {
  if (source === "fill colour") return "filled areas or text";
  if (source === "stroke colour") return "lines";
  if (source.startsWith("image") || source === "inline image") return "images";
  if (source.startsWith("shading")) return "gradients";
  if (source.startsWith("pattern")) return "patterns";
  return "other artwork";
}

function boxOf(r: Rect) {
  return { x: round2(r[0]), y: round2(r[1]), width: round2(rectWidth(r)), height: round2(rectHeight(r)), unit: "pt" as const };
}

const inches = (pt: number) => fmtNum(pt / PT_PER_INCH);
const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
