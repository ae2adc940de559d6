import type { FixType } from "./fix-types";

type Entry = {
  /** Severities the code can take (the rules pick one per case). */
  severities: ("error" | "warning" | "info")[];
  files: ("raster" | "pdf")[];
  /** Fix types per file kind (empty: no AI fix repairs it). */
  fixTypes: { raster?: FixType[]; pdf?: FixType[] };
  meaning: string;
};

/**
 * Every issue code a report can contain. docs/api.md lists the same table and
 * the fixture tests prove each one is raised by a file made for it.
 */
export const ISSUE_CODES = {
  file_type_mismatch: { severities: ["warning"], files: ["raster", "pdf"], fixTypes: {}, meaning: "The declared fileType contradicts the file's bytes; the file is checked as what it is." },
  file_corrupt: { severities: ["error"], files: ["raster", "pdf"], fixTypes: {}, meaning: "Truncated or damaged data: the file, or one PDF page's content, cannot be read." },
  pdf_encrypted: { severities: ["error"], files: ["pdf"], fixTypes: {}, meaning: "Password or security restrictions; content cannot be checked." },
  too_many_pages: { severities: ["error"], files: ["pdf"], fixTypes: {}, meaning: "More pages than PREFLIGHT_MAX_PDF_PAGES." },
  content_too_complex: { severities: ["error"], files: ["pdf"], fixTypes: {}, meaning: "A page draws more than 100,000 images and forms (nested forms)." },
  image_too_large: { severities: ["error"], files: ["raster"], fixTypes: {}, meaning: "More pixels than PREFLIGHT_MAX_PIXELS; header facts are still checked." },
  print_size_unknown: { severities: ["info"], files: ["raster"], fixTypes: {}, meaning: "No canvas was given, so resolution, cropping and bleed of a raster were not checked." },
  low_resolution: {
    severities: ["error", "warning"],
    files: ["raster", "pdf"],
    fixTypes: { raster: ["upscale_resolution_2x", "upscale_resolution_4x", "sharpen_edges"], pdf: [] },
    meaning: "Effective resolution below the required DPI: warning from 75% of it, error below.",
  },
  aspect_ratio_mismatch: { severities: ["warning"], files: ["raster"], fixTypes: { raster: ["resize_to_spec"] }, meaning: "Shape differs from the canvas (plus bleed) by more than 1%; says what filling it crops." },
  missing_bleed: { severities: ["error"], files: ["raster", "pdf"], fixTypes: { raster: ["add_bleed"], pdf: ["add_bleed"] }, meaning: "Less bleed than bleedMm on some side." },
  page_size_mismatch: { severities: ["error"], files: ["pdf"], fixTypes: { pdf: [] }, meaning: "A page's trim size differs from the canvas." },
  content_outside_trim: {
    severities: ["error", "warning"],
    files: ["pdf"],
    fixTypes: { pdf: [] },
    meaning: "Text (error) or artwork (warning) that crosses the trim and would be cut off; artwork running on to the bleed edge is meant to bleed and is not flagged. `box` is the object's bounds.",
  },
  content_in_safe_margin: { severities: ["warning"], files: ["pdf"], fixTypes: { pdf: [] }, meaning: "Text or artwork inside the trim but closer to it than the 3 mm safe margin. `box` is the object's bounds." },
  mixed_page_sizes: { severities: ["warning"], files: ["pdf"], fixTypes: { pdf: [] }, meaning: "Pages of different sizes in one document." },
  font_not_embedded: { severities: ["error"], files: ["pdf"], fixTypes: { pdf: [] }, meaning: "A font shows visible text without being embedded (details.prepressFix: embed_fonts)." },
  color_mode_mismatch: {
    severities: ["error", "warning"],
    files: ["raster", "pdf"],
    fixTypes: { raster: ["convert_color_mode"], pdf: ["convert_color_mode"] },
    meaning: "Colour used differs from requiredColorMode (RGB where CMYK is required is an error and fixable).",
  },
  spot_color: { severities: ["warning", "info"], files: ["pdf"], fixTypes: { pdf: ["convert_color_mode"] }, meaning: "Spot inks (Separation/DeviceN); a warning when CMYK is required." },
  icc_profile_missing: { severities: ["warning", "info"], files: ["raster"], fixTypes: {}, meaning: "No embedded ICC profile: a warning for CMYK (press condition unknown), info for RGB (taken as sRGB)." },
  icc_profile_mismatch: { severities: ["error"], files: ["raster"], fixTypes: {}, meaning: "The embedded profile is for another colour space than the pixels." },
  transparency: {
    severities: ["warning"],
    files: ["raster", "pdf"],
    fixTypes: { raster: ["remove_transparency"], pdf: ["remove_transparency"] },
    meaning: "Raster: pixels that are not fully opaque. PDF: transparency actually used on the page.",
  },
  exif_orientation: { severities: ["warning"], files: ["raster"], fixTypes: { raster: ["resize_to_spec"] }, meaning: "The image relies on an EXIF orientation tag to appear upright." },
  more_issues_omitted: { severities: ["info"], files: ["raster", "pdf"], fixTypes: {}, meaning: "More than 100 issues of one code: the rest are counted here." },
} satisfies Record<string, Entry>;

export type IssueCode = keyof typeof ISSUE_CODES;
