import type { RasterAnalysis } from "@/lib/engines/imaging/analyze-raster";
import type { PreflightFileFacts } from "@/lib/foundation/db/schema/preflight";
import { upscaleFixes } from "./fix-types";
import { FILE_TYPE_NAMES, fmtInt, fmtNum, fmtPercent, makeIssue, resolutionSeverity, type CheckTargets, type PreflightIssue } from "./issue";
import { meetsResolution, shownPpi } from "./tolerances";

/** Two shapes closer than this (relative) are the same shape: a 1% difference crops under 1% of one side. */
const ASPECT_TOLERANCE = 0.01;
const MM_PER_INCH = 25.4;

const ORIENTATIONS: Record<number, string> = {
  2: "mirrored left to right",
  3: "upside down",
  4: "mirrored top to bottom",
  5: "mirrored and turned 90° anticlockwise",
  6: "turned 90° anticlockwise",
  7: "mirrored and turned 90° clockwise",
  8: "turned 90° clockwise",
};

const MODE_NAMES = { rgb: "RGB", cmyk: "CMYK", gray: "grayscale", lab: "Lab", other: "an unusual colour space" } as const;
const ICC_SPACE_FOR_MODE = { rgb: "RGB", cmyk: "CMYK", gray: "GRAY", lab: "Lab" } as Record<string, string>;

/**
 * The preflight rules for JPEG, PNG and TIFF files. Geometry (resolution,
 * cropping, bleed) needs the canvas size; colour, transparency, orientation and
 * damage are checked always. Messages carry the actual values.
 */
export function rasterIssues(a: RasterAnalysis, fileType: "jpeg" | "png" | "tiff", t: CheckTargets): { issues: PreflightIssue[]; facts: PreflightFileFacts } {
  const name = FILE_TYPE_NAMES[fileType];
  if (a.kind === "unreadable") {
    return {
      facts: {},
      issues: [makeIssue("file_corrupt", "error", `The ${name} file could not be read: it is damaged or incomplete. Export it again.`, { details: { reason: a.reason } })],
    };
  }
  const issues: PreflightIssue[] = [];
  const facts: PreflightFileFacts = { widthPx: a.widthPx, heightPx: a.heightPx };
  const size = `${fmtInt(a.widthPx)} x ${fmtInt(a.heightPx)} px`;

  if (a.pixelLimitExceeded) {
    const { pixels, limit } = a.pixelLimitExceeded;
    issues.push(
      makeIssue(
        "image_too_large",
        "error",
        `The image is ${size} (${fmtMp(pixels)} megapixels); preflight and printing accept up to ${fmtMp(limit)} megapixels. Reduce it to the print size at ${fmtInt(t.requiredDpi)} ppi.`,
        { details: { widthPx: a.widthPx, heightPx: a.heightPx, pixels, maxPixels: limit } },
      ),
    );
  }
  if (a.decodeError) {
    issues.push(
      makeIssue("file_corrupt", "error", `The ${name} image data is damaged or incomplete (it ends early or contains errors); the print would show missing or grey areas. Export the file again.`, {
        details: { reason: a.decodeError },
      }),
    );
  }
  if (a.orientation !== 1) {
    issues.push(
      makeIssue(
        "exif_orientation",
        "warning",
        `The image is stored ${ORIENTATIONS[a.orientation]} and relies on its EXIF orientation tag (${a.orientation}) to appear upright; print workflows that ignore the tag would print it that way.`,
        { details: { orientation: a.orientation, displayedWidthPx: a.widthPx, displayedHeightPx: a.heightPx }, fixTypes: ["resize_to_spec"] },
      ),
    );
  }
  issues.push(...colorIssues(a, t));
  if (a.transparency) {
    const { transparentPixels, totalPixels, box } = a.transparency;
    issues.push(
      makeIssue(
        "transparency",
        "warning",
        `${fmtPercent(transparentPixels / totalPixels)} of the image (${fmtInt(transparentPixels)} pixels) is transparent or semi-transparent; those areas print as the paper colour.`,
        { box: { ...box, unit: "px" }, details: { transparentPixels, totalPixels, bitsPerChannel: a.bitsPerChannel }, fixTypes: ["remove_transparency"] },
      ),
    );
  }
  if (t.canvas) issues.push(...geometryIssues(a.widthPx, a.heightPx, t.canvas, t));
  else {
    issues.push(
      makeIssue("print_size_unknown", "info", "No print size was given, so resolution, cropping and bleed were not checked. Give the canvas width and height to check them.", {
        details: { widthPx: a.widthPx, heightPx: a.heightPx, densityPpi: a.density ?? null },
      }),
    );
  }
  return { issues, facts };
}

function colorIssues(a: Extract<RasterAnalysis, { kind: "ok" }>, t: CheckTargets): PreflightIssue[] {
  const issues: PreflightIssue[] = [];
  const mode = a.colorMode;
  const described = `${MODE_NAMES[mode]}${a.icc?.description ? ` (${a.icc.description})` : ""}`;
  const required = t.requiredColorMode;
  if (required) {
    const details = { colorMode: mode, requiredColorMode: required, space: a.space, iccProfile: a.icc?.description ?? null };
    if (required === "cmyk" && (mode === "rgb" || mode === "lab" || mode === "other")) {
      issues.push(makeIssue("color_mode_mismatch", "error", `The image is ${described}; CMYK is required.`, { details, fixTypes: mode === "rgb" ? ["convert_color_mode"] : [] }));
    } else if (required === "rgb" && mode !== "rgb" && mode !== "gray") {
      issues.push(makeIssue("color_mode_mismatch", "warning", `The image is ${described}; this product prints from RGB, so its colours will be converted.`, { details }));
    } else if (required === "grayscale" && mode !== "gray") {
      issues.push(makeIssue("color_mode_mismatch", "warning", `The image is ${described}; a grayscale file is required, so its colours will be converted to grey.`, { details }));
    }
  }
  const expected = ICC_SPACE_FOR_MODE[mode];
  if (a.icc && expected && a.icc.colorSpace !== expected) {
    issues.push(
      makeIssue(
        "icc_profile_mismatch",
        "error",
        `The embedded ICC profile${a.icc.description ? ` "${a.icc.description}"` : ""} is for ${a.icc.colorSpace} data but the image is ${MODE_NAMES[mode]}; its colours cannot be reproduced as intended.`,
        { details: { profileColorSpace: a.icc.colorSpace, colorMode: mode, iccProfile: a.icc.description ?? null } },
      ),
    );
  } else if (!a.icc && mode === "cmyk") {
    issues.push(
      makeIssue("icc_profile_missing", "warning", "The CMYK image has no embedded ICC profile, so the press condition it was separated for is unknown; its colours may shift in print.", {
        details: { colorMode: mode },
      }),
    );
  } else if (!a.icc && mode === "rgb") {
    issues.push(makeIssue("icc_profile_missing", "info", "The RGB image has no embedded ICC profile; its colours are treated as sRGB.", { details: { colorMode: mode, assumed: "sRGB" } }));
  }
  return issues;
}

/**
 * Resolution, cropping and bleed against the canvas. The file is the whole
 * printed area: with bleed it should be shaped like the canvas plus the bleed
 * on every side. When the trim and bleed shapes are equally close (square
 * canvases), the file is taken to include the bleed.
 */
function geometryIssues(widthPx: number, heightPx: number, canvas: { widthIn: number; heightIn: number }, t: CheckTargets): PreflightIssue[] {
  const issues: PreflightIssue[] = [];
  const bleedIn = t.bleedMm && t.bleedMm > 0 ? t.bleedMm / MM_PER_INCH : 0;
  const trim = { w: canvas.widthIn, h: canvas.heightIn };
  const bleed = { w: canvas.widthIn + 2 * bleedIn, h: canvas.heightIn + 2 * bleedIn };
  const aspect = widthPx / heightPx;
  const offTrim = Math.abs(aspect / (trim.w / trim.h) - 1);
  const offBleed = Math.abs(aspect / (bleed.w / bleed.h) - 1);

  let target = trim;
  let targetName = `the ${fmtNum(trim.w)} x ${fmtNum(trim.h)} in canvas`;
  if (bleedIn > 0) {
    if (offBleed <= offTrim || offTrim > ASPECT_TOLERANCE) {
      target = bleed;
      targetName = `the ${fmtNum(bleed.w)} x ${fmtNum(bleed.h)} in canvas plus bleed`;
    } else {
      // Shaped like the trim: reaching the bleed means enlarging it and cutting the edges.
      const scale = Math.max(bleed.w / trim.w, bleed.h / trim.h);
      issues.push(
        makeIssue(
          "missing_bleed",
          "error",
          `The image is shaped like the ${fmtNum(trim.w)} x ${fmtNum(trim.h)} in canvas without the ${fmtNum(t.bleedMm!)} mm bleed on each side; printing to the edge would enlarge it by ${fmtPercent(scale - 1)} and cut the extra from its edges.`,
          {
            details: { bleedMm: t.bleedMm, canvasWidthInches: trim.w, canvasHeightInches: trim.h, expectedWidthInches: round2(bleed.w), expectedHeightInches: round2(bleed.h) },
            fixTypes: ["add_bleed"],
          },
        ),
      );
    }
  }

  const ppi = Math.min(widthPx / target.w, heightPx / target.h);
  if (!meetsResolution(ppi, t.requiredDpi)) {
    const neededPx = { widthPx: Math.ceil(target.w * t.requiredDpi), heightPx: Math.ceil(target.h * t.requiredDpi) };
    issues.push(
      makeIssue("low_resolution", resolutionSeverity(ppi, t.requiredDpi), `The image is ${fmtInt(shownPpi(ppi, t.requiredDpi))} ppi when printed on ${targetName} (${fmtInt(widthPx)} x ${fmtInt(heightPx)} px); ${fmtInt(t.requiredDpi)} ppi required.`, {
        details: { effectivePpi: round1(ppi), requiredDpi: t.requiredDpi, requiredDpiSource: t.requiredDpiSource, widthPx, heightPx, printWidthInches: round2(target.w), printHeightInches: round2(target.h), neededPx },
        fixTypes: upscaleFixes(ppi, t.requiredDpi),
      }),
    );
  }

  const off = target === bleed ? offBleed : offTrim;
  if (off > ASPECT_TOLERANCE) {
    // Filling the target crops the axis that is too long; the kept part is centred.
    const pxPerIn = Math.max(target.w / widthPx, target.h / heightPx);
    const keptW = Math.min(widthPx, Math.round(target.w / pxPerIn));
    const keptH = Math.min(heightPx, Math.round(target.h / pxPerIn));
    const cutW = widthPx - keptW;
    const cutH = heightPx - keptH;
    const axis = cutW > cutH ? "width" : "height";
    const cut = Math.max(cutW, cutH);
    const edges = axis === "width" ? "left and right" : "top and bottom";
    issues.push(
      makeIssue(
        "aspect_ratio_mismatch",
        "warning",
        `The image is ${ratio(widthPx, heightPx)} (${fmtInt(widthPx)} x ${fmtInt(heightPx)} px) but ${targetName} is ${ratio(target.w, target.h)}: filling it crops ${fmtInt(cut)} px (${fmtPercent(cut / (axis === "width" ? widthPx : heightPx))}) of the ${axis}, about ${fmtInt(Math.floor(cut / 2))} px from each of the ${edges} edges.`,
        {
          box: { x: Math.floor(cutW / 2), y: Math.floor(cutH / 2), width: keptW, height: keptH, unit: "px" },
          details: { imageAspect: round2(aspect), targetAspect: round2(target.w / target.h), croppedAxis: axis, croppedPx: cut, keptWidthPx: keptW, keptHeightPx: keptH },
          fixTypes: ["resize_to_spec"],
        },
      ),
    );
  }
  return issues;
}

/** "3:2" for simple ratios, otherwise "1.41:1". */
function ratio(w: number, h: number): string {
  const r = w / h;
  for (let d = 1; d <= 12; d++) {
    const n = r * d;
    if (Math.abs(n - Math.round(n)) < 0.005 * d && Math.round(n) <= 24) return `${Math.round(n)}:${d}`;
  }
  return `${r.toFixed(2)}:1`;
}

const fmtMp = (pixels: number) => (pixels / 1e6).toFixed(1);
const round1 = (n: number) => Math.round(n * 10) / 10;
const round2 = (n: number) => Math.round(n * 100) / 100;
