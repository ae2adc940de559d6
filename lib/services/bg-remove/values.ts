/**
 * Background removal's fixed values, the one copy the API schema, the service and
 * the studio page all read. Client-safe: no server imports (components import it).
 * The lists themselves belong to the engine, which switches on them.
 */
import { EDGE_SOFTNESS, OUTPUT_BACKGROUNDS, SUBJECT_TYPES, type OutputBackground, type SubjectType } from "@/lib/engines/ml/background-removal/types";

export { EDGE_SOFTNESS, OUTPUT_BACKGROUNDS, SUBJECT_TYPES, type OutputBackground, type SubjectType };
export { BG_REMOVE_COST } from "./pricing";

/** How the studio names each subject type. */
export const SUBJECT_TYPE_LABELS: Record<SubjectType, string> = {
  auto: "Automatic",
  person: "Person",
  product: "Product",
  logo: "Logo",
  text: "Text",
  hair_heavy: "Lots of hair or fur",
};

/** A job's subject_type as the studio shows it (a value this list lacks stays as sent). */
export function subjectTypeLabel(value: string): string {
  return (SUBJECT_TYPES as readonly string[]).includes(value) ? SUBJECT_TYPE_LABELS[value as SubjectType] : value;
}

/** How the studio names each output background. */
export const OUTPUT_BACKGROUND_LABELS: Record<OutputBackground, string> = { transparent: "Transparent PNG", white: "White" };

/** The contract's defaults (4.1), applied by the schema and preselected by the page. */
export const BG_REMOVE_DEFAULTS = { subject_type: "auto", edge_softness: 3, high_detail_mode: false, output_background: "transparent" } as const satisfies {
  subject_type: SubjectType;
  edge_softness: number;
  high_detail_mode: boolean;
  output_background: OutputBackground;
};
