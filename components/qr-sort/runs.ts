import type { SortFrame } from "./types";

/** One child's run (or a stretch filed under nobody) as the contact sheet draws it: consecutive frames of one filing. */
export type Run = { key: string; subjectId: string | null; label: string; frames: SortFrame[] };

/** What a frame is filed under: its subject, an unknown card's student id, or nobody (before the first card, or moved there by hand). */
function filing(f: SortFrame): { key: string; label: string } {
  if (f.subject_id) return { key: `s:${f.subject_id}`, label: f.name ?? f.student_id ?? f.subject_id };
  if (f.student_id) return { key: `u:${f.student_id}`, label: `Card ${f.student_id} (not on the roster)` };
  if (f.role === "before_first_card" && !f.manual) return { key: "before", label: "Before the first card" };
  return { key: "none", label: "Filed under nobody" };
}

/** Frames in capture order cut into runs wherever the filing changes. */
export function toRuns(frames: SortFrame[]): Run[] {
  const runs: Run[] = [];
  for (const f of frames) {
    const { key, label } = filing(f);
    const last = runs.at(-1);
    if (last && last.key === key) last.frames.push(f);
    else runs.push({ key, subjectId: f.subject_id, label, frames: [f] });
  }
  return runs;
}

/**
 * A steady colour per filing: hues spread by the golden angle in order of first
 * appearance, so neighbouring children never share a colour; nobody is grey.
 */
export function runColours(runs: Run[]): Map<string, string> {
  const colours = new Map<string, string>();
  let n = 0;
  for (const r of runs) {
    if (colours.has(r.key)) continue;
    colours.set(r.key, r.subjectId || r.key.startsWith("u:") ? `hsl(${Math.round((n++ * 137.508) % 360)} 70% 45%)` : "hsl(215 14% 60%)");
  }
  return colours;
}
