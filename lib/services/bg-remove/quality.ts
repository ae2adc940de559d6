import { z } from "zod";
import type { CutoutQuality } from "@/lib/engines/ml/background-removal";
import type { BgRemoveQuality } from "@/lib/foundation/db/schema";

/** The engine's report as the job stores and shows it: snake_case, with the verdict a review screen filters on. */
export function toQualityField(q: CutoutQuality): BgRemoveQuality {
  return {
    people_kept: q.peopleKept,
    doubtful_regions: q.doubtfulRegions.map((r) => ({ reason: r.reason, left: r.left, top: r.top, width: r.width, height: r.height, area: r.area })),
    needs_review: q.doubtfulRegions.length > 0,
  };
}

export const DOUBT_REASONS = ["kept_outside_person", "removed_touching_person", "removed_person", "uncertain"] as const;

/** The job's `quality` in the response schema (and OpenAPI). */
export const bgRemoveQualitySchema = z
  .object({
    people_kept: z.number().int().nullable().meta({
      description:
        "People kept in the cut-out (subject_type person, or auto when the photo is a portrait); null when the person rule did not run. Each kept person region counts the faces found on it, at least one (a person seen from behind has no face), so people who touch are counted apart; faces are looked for only when a region could hold more than one person (two heads on its outline, or much wider than high), otherwise a region counts one.",
    }),
    doubtful_regions: z
      .array(
        z.object({
          reason: z.enum(DOUBT_REASONS).meta({
            description:
              "kept_outside_person: kept though outside the person model's mask (a raised hand, a held object); removed_touching_person: removed though it touches the person; removed_person: the person model sees a person there and the cut-out removed it; uncertain: a large translucent area.",
          }),
          left: z.number().int(),
          top: z.number().int(),
          width: z.number().int(),
          height: z.number().int(),
          area: z.number().meta({ description: "Share of the frame, 0 to 1." }),
        }),
      )
      .meta({ description: "Regions of the output (its pixels) where the engine doubts its cut-out, largest first (at most 8)." }),
    needs_review: z.boolean().meta({ description: "True when there is any doubtful region: worth a person's look before print." }),
  })
  .nullable()
  .meta({ description: "The engine's own doubt about the cut-out, once completed (null before, and for jobs completed before it was reported)." });
