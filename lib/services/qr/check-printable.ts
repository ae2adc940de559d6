import { ApiError } from "@/lib/foundation/http/api-error";
import { PRINTABLE_SCRIPTS, describeCharacter, unprintableCharacters } from "@/lib/engines/pdf/card-fonts/fonts";
import type { GenerateQrInput } from "./schemas";

/**
 * Refuses, before any charge, text the card fonts cannot draw (it would print
 * as empty boxes), naming each field and character.
 */
export function checkPrintable(input: Pick<GenerateQrInput, "school_name" | "subjects" | "job_id">): void {
  const fields: Array<{ field: string; message: string }> = [];
  const check = (field: string, text: string | null | undefined) => {
    if (!text) return;
    const missing = unprintableCharacters(text);
    if (missing.length > 0) fields.push({ field, message: `Cannot be printed: no card font has ${missing.slice(0, 5).map(describeCharacter).join(", ")}${missing.length > 5 ? " …" : ""}. Cards print ${PRINTABLE_SCRIPTS}.` });
  };
  check("school_name", input.school_name);
  input.subjects.forEach((s, i) => {
    check(`subjects.${i}.name`, s.name);
    check(`subjects.${i}.class_name`, s.class_name);
    check(`subjects.${i}.student_id`, s.student_id);
  });
  if (fields.length > 0) {
    const shown = fields.slice(0, 50);
    throw new ApiError(400, "VALIDATION_ERROR", `Invalid body: ${shown.map((f) => `${f.field}: ${f.message}`).slice(0, 3).join("; ")}`, { in: "body", fields: shown, ...(fields.length > shown.length ? { field_count: fields.length } : {}) });
  }
}
