import Papa from "papaparse";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { matchFiles } from "@/lib/foundation/db/schema";
import { requireMatchJob } from "./match-job-status";
import { facesOf } from "./match-results";

export const EXPORT_COLUMNS = ["file_name", "face", "subject", "student_id", "decision", "score", "decided_by"] as const;

/**
 * A match job as a spreadsheet (papaparse): one row per face found, in photo order,
 * and one row for each photo without a face (`no_face`) or that could not be read
 * (`failed`). `decided_by` says whether a person reviewed the face or the engine
 * decided. Cells that a spreadsheet would run as a formula (=, +, -, @) are escaped.
 */
export async function matchJobCsv(db: Db, accountId: string, matchJobId: number): Promise<{ filename: string; csv: string }> {
  const job = await requireMatchJob(db, accountId, matchJobId);
  const files = await db.select().from(matchFiles).where(eq(matchFiles.matchJobId, job.id)).orderBy(asc(matchFiles.position));
  const faces = files.length ? await facesOf(db, files.map((f) => f.id)) : [];
  const byFile = new Map<number, typeof faces>();
  for (const f of faces) byFile.set(f.face.matchFileId, [...(byFile.get(f.face.matchFileId) ?? []), f]);
  const rows: (string | number)[][] = [];
  for (const file of files) {
    const found = byFile.get(file.id) ?? [];
    if (file.status !== "completed" || found.length === 0) {
      rows.push([file.filename, "", "", "", file.status === "failed" ? "failed" : file.status === "pending" ? "pending" : "no_face", "", ""]);
      continue;
    }
    found.forEach((f, i) => {
      const matched = f.face.decision !== "unmatched" || f.face.finalSubjectId;
      rows.push([
        file.filename,
        i + 1,
        matched ? (f.name ?? "") : "",
        matched ? (f.studentId ?? "") : "",
        f.face.decision,
        f.face.score == null ? "" : f.face.score.toFixed(2),
        f.face.review ? `reviewer (${f.face.review})` : "engine",
      ]);
    });
  }
  return { filename: `match-job-${job.id}.csv`, csv: Papa.unparse({ fields: [...EXPORT_COLUMNS], data: rows }, { escapeFormulae: true }) };
}
