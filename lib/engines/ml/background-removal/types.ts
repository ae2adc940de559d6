import type { CutoutQuality } from "./cutout-quality";
import type { PeopleMap } from "./count-people";

/**
 * What the photo shows; it picks how the model's matte is cleaned up (see subject-profiles.ts).
 * The one list: the API schema and the studio page take it through lib/services/bg-remove/values.ts.
 */
export const SUBJECT_TYPES = ["auto", "person", "product", "logo", "text", "hair_heavy"] as const;
export type SubjectType = (typeof SUBJECT_TYPES)[number];

/** "white": an opaque PNG (no alpha channel) on white; "transparent": an RGBA PNG. */
export const OUTPUT_BACKGROUNDS = ["transparent", "white"] as const;
export type OutputBackground = (typeof OUTPUT_BACKGROUNDS)[number];

/** Edge softness is an integer in this range: 0 a hard cut, 10 a wide feathered edge. */
export const EDGE_SOFTNESS = { min: 0, max: 10 } as const;

export type BgRemovalOptions = {
  subjectType: SubjectType;
  /** Integer 0..10: 0 is a hard cut (alpha only 0 or 255), 10 a wide feathered edge. */
  edgeSoftness: number;
  /** A second, closer model pass around the subject and edge-aware upsampling of the matte. */
  highDetail: boolean;
  background: OutputBackground;
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

/** What the engine's pool answers: the result, and the kept people's regions on which removeBackground counts faces. */
export type EngineResult = BgRemovalResult & { peopleMap?: PeopleMap };
