import type { CutoutQuality } from "./cutout-quality";

/** What the photo shows; it picks how the model's matte is cleaned up (see subject-profiles.ts). */
export type SubjectType = "auto" | "person" | "product" | "logo" | "text" | "hair_heavy";

export type BgRemovalOptions = {
  subjectType: SubjectType;
  /** Integer 0..10: 0 is a hard cut (alpha only 0 or 255), 10 a wide feathered edge. */
  edgeSoftness: number;
  /** A second, closer model pass around the subject and edge-aware upsampling of the matte. */
  highDetail: boolean;
  /** "white": an opaque PNG (no alpha channel) on white; "transparent": an RGBA PNG. */
  background: "transparent" | "white";
};

export type BgRemovalResult = {
  png: Buffer;
  width: number;
  height: number;
  /** Which engine produced the result, e.g. "isnet-onnx". */
  provider: string;
  timingsMs: Record<string, number>;
  /** The engine's own doubt about this cut-out: people kept, regions worth a look (cutout-quality.ts). */
  quality: CutoutQuality;
};

export const SUBJECT_TYPES: readonly SubjectType[] = ["auto", "person", "product", "logo", "text", "hair_heavy"];
