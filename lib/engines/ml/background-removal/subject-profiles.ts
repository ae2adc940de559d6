import type { SubjectType } from "./types";

/**
 * How each subject type turns the model's raw matte into the final alpha. The
 * model is the same for all; what differs is what a good cut-out of that kind of
 * subject looks like:
 *
 * - auto: the model's matte as it is, minus specks.
 * - person: levels clip faint haze and solidify the body; soft edges (hair) kept.
 * - hair_heavy: levels barely clip, so translucent strands keep partial alpha; it
 *   always takes the high-detail path (closer pass + edge-aware upsampling), since
 *   fine hair is exactly what a 1024 px matte blurs away.
 * - product: a solid object: pin-holes and unsure enclosed regions are filled and
 *   the interior is made fully opaque, so reflections and white labels are not
 *   cut out; the outline stays soft.
 * - logo, text: hard edges: the matte is thresholded at 50 % at full resolution
 *   (alpha only 0 or 255, whatever edgeSoftness), and nothing is removed or filled,
 *   because counters of letters are real holes and dots of an i are real islands.
 */
export type SubjectProfile = {
  /** Stretch lo..hi of the matte to 0..1, or null to keep it. */
  levels: [number, number] | null;
  /** Drop regions smaller than this fraction of the largest one (0: keep all). */
  islandFraction: number;
  /** Fill enclosed holes (see fillHoles), or null. */
  holes: { maxFraction: number; minConfidence: number } | null;
  /** Make pixels this far inside the outline (fraction of the working long side) opaque, or null. */
  solidInteriorFraction: number | null;
  /** Hard 0/255 alpha at full resolution, ignoring edgeSoftness. */
  hardEdges: boolean;
  /** Second model pass on the subject's box + guided upsampling. */
  highDetail: boolean;
  /**
   * The person rule (person-matte.ts): "always" keeps only the person the person
   * model finds (if it finds one), "portrait" only when the photo looks like a
   * portrait, "off" never.
   */
  personRule: "always" | "portrait" | "off";
};

export function subjectProfile(type: SubjectType, highDetail: boolean): SubjectProfile {
  const base: SubjectProfile = {
    levels: null,
    islandFraction: 0.005,
    holes: null,
    solidInteriorFraction: null,
    hardEdges: false,
    highDetail,
    personRule: "off",
  };
  switch (type) {
    case "auto":
      return { ...base, personRule: "portrait" };
    case "person":
      return { ...base, levels: [0.08, 0.92], islandFraction: 0.02, personRule: "always" };
    case "hair_heavy":
      return { ...base, levels: [0.01, 0.97], islandFraction: 0.02, highDetail: true, personRule: "portrait" };
    case "product":
      return {
        ...base,
        levels: [0.05, 0.95],
        islandFraction: 0.01,
        holes: { maxFraction: 0.002, minConfidence: 0.2 },
        solidInteriorFraction: 0.004,
      };
    case "logo":
    case "text":
      return { ...base, islandFraction: 0, hardEdges: true };
  }
}
