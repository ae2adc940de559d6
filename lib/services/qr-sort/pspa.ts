import { asc, eq, and } from "drizzle-orm";
import { zipStream } from "../agencies/zip-stream";
import sharp from "sharp";
import type { Db } from "@/lib/foundation/db/types";
import { agencies, jobFiles, qrSortFrames, subjects, yearbookPoses } from "@/lib/foundation/db/schema";
import { isFaceInputError } from "@/lib/engines/ml/faces";
import { cropFace, CropRefusedError } from "@/lib/services/face-crop/crop-face";
import { storage } from "@/lib/domain/storage";
import { splitName } from "../agencies/export-names";
import { requireFinishedSort } from "./sort-results";

/** INDEX.TXT's columns, in the order of the PSPA guidelines. */
export const PSPA_COLUMNS = ["Volume Name", "Image Folder", "Image File Name", "Grade", "Last Name", "First Name", "Homeroom", "Period", "Teacher Name", "Track", "Department", "Title", "Image Size"] as const;
/** Images per folder: yearbook software and old CD file systems both cope badly with thousands in one. */
export const PSPA_FOLDER_SIZE = 250;
/** Every portrait of a package, 4:5: the guidelines' size. */
export const PSPA_SIZE = { width: 640, height: 800 };

type Person = { subjectId: string; studentId: string; name: string; grade: string | null; homeroom: string | null; period: string | null; teacher: string | null; track: string | null; department: string | null; title: string | null; storageKey: string };

/**
 * Each subject's portrait, with its roster fields: the yearbook pose a parent
 * chose in the gallery (lib/services/galleries/yearbook-pose.ts), else the
 * first portrait in capture order (the frame after its card).
 */
async function peopleOf(db: Db, taskId: string, jobId: number): Promise<Person[]> {
  const rows = await db
    .select({
      subjectId: subjects.id,
      studentId: subjects.studentId,
      name: subjects.name,
      grade: subjects.grade,
      homeroom: subjects.homeroom,
      period: subjects.period,
      teacher: subjects.teacher,
      track: subjects.track,
      department: subjects.department,
      title: subjects.title,
      storageKey: jobFiles.storageKey,
    })
    .from(qrSortFrames)
    .innerJoin(subjects, eq(subjects.id, qrSortFrames.subjectId))
    .innerJoin(jobFiles, eq(jobFiles.id, qrSortFrames.fileId))
    .where(and(eq(qrSortFrames.taskId, taskId), eq(qrSortFrames.role, "subject")))
    .orderBy(asc(qrSortFrames.sequence), asc(qrSortFrames.id));
  const chosen = new Map(
    (
      await db
        .select({ subjectId: yearbookPoses.subjectId, storageKey: jobFiles.storageKey })
        .from(yearbookPoses)
        .innerJoin(jobFiles, eq(jobFiles.id, yearbookPoses.jobFileId))
        .where(eq(yearbookPoses.jobId, jobId))
    ).map((p) => [p.subjectId, p.storageKey]),
  );
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.subjectId) && seen.add(r.subjectId)).map((r) => ({ ...r, storageKey: chosen.get(r.subjectId) ?? r.storageKey }));
}

/**
 * The portrait a yearbook gets: cropped by the Face Crop engine's school preset
 * (4:5, head and eye line placed), then brought to the package's one size,
 * 640 × 800 (the guidelines' size: yearbook software lays out a page of
 * portraits expecting them alike; a package of mixed sizes came out 640 × 800
 * to 2024 × 2530). A photo Face Crop refuses (no face, a head the photo cuts,
 * too much fill, a face too small) is cut 4:5 from its centre instead, and said
 * so; a crop that reached past the photo's edge (filled) is said too.
 */
export async function pspaPortrait(bytes: Buffer): Promise<{ jpeg: Buffer; width: number; height: number; faceFound: boolean; padded: boolean }> {
  let source: sharp.Sharp;
  let faceFound = true;
  let padded = false;
  try {
    const crop = await cropFace(bytes, "school", false);
    source = sharp(crop.rendered.original);
    padded = crop.plan.edge === "padded";
  } catch (err) {
    if (!(err instanceof CropRefusedError) && !isFaceInputError(err)) throw err;
    faceFound = false;
    source = sharp(bytes).rotate();
  }
  const { width, height } = PSPA_SIZE;
  const jpeg = await source.resize(width, height, { fit: "cover", position: "centre", kernel: "lanczos3" }).jpeg({ quality: 92 }).toBuffer();
  return { jpeg, width, height, faceFound, padded };
}

/** One INDEX.TXT line: tab-separated, tabs and line breaks inside a value turned to spaces. */
function indexLine(values: (string | null)[]): string {
  return values.map((v) => (v ?? "").replace(/[\t\r\n]+/g, " ")).join("\t");
}

/**
 * The PSPA package a yearbook imports: `INDEX.TXT` (tab-separated, one line per
 * person, the guidelines' columns, no header line, CRLF) beside folders
 * `IMAGES01`, `IMAGES02`, … of at most 250 portraits named `00000001.jpg` on.
 * One portrait per subject filed by the sort: the parent's chosen yearbook pose, else its first photo after its card.
 * Streamed: one portrait is read, cropped and written at a time, INDEX.TXT last.
 * `README.TXT` lists the subjects whose photo had no face to crop on.
 */
export async function pspaZip(db: Db, accountId: string, taskId: string): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const task = await requireFinishedSort(db, accountId, taskId);
  const [agency] = await db.select({ name: agencies.name }).from(agencies).where(eq(agencies.id, task.agencyId));
  const people = await peopleOf(db, task.id, task.jobId);
  const volume = agency?.name ?? "Yearbook";
  const lines: string[] = [];
  const noFace: string[] = [];
  const padded: string[] = [];
  let at = 0;
  const stream = zipStream(async (add) => {
    const person = people[at];
    if (!person) {
      add("INDEX.TXT", new TextEncoder().encode(lines.map((l) => `${l}\r\n`).join("")));
      const readme = [
        `PSPA package of ${volume}: ${lines.length} portraits, each ${PSPA_SIZE.width} x ${PSPA_SIZE.height}.`,
        ...(noFace.length ? ["", "No whole face was found in these photos (none, or cut by the photo's edge); they were cut 4:5 from the centre:", ...noFace] : []),
        ...(padded.length ? ["", "These portraits reach past the edge of their photo: the part outside it is filled. Check them, or retake:", ...padded] : []),
      ];
      add("README.TXT", new TextEncoder().encode(readme.map((l) => `${l}\r\n`).join("")));
      return false;
    }
    const n = at++;
    const stored = await storage().get(person.storageKey);
    if (!stored) return true; // deleted meanwhile: left out
    const portrait = await pspaPortrait(stored.body);
    const folder = `IMAGES${String(Math.floor(n / PSPA_FOLDER_SIZE) + 1).padStart(2, "0")}`;
    const file = `${String(n + 1).padStart(8, "0")}.jpg`;
    add(`${folder}/${file}`, portrait.jpeg);
    if (!portrait.faceFound) noFace.push(`${folder}/${file}\t${person.studentId}\t${person.name}`);
    if (portrait.padded) padded.push(`${folder}/${file}\t${person.studentId}\t${person.name}`);
    const { last, first } = splitName(person.name);
    lines.push(indexLine([volume, folder, file, person.grade, last, first, person.homeroom, person.period, person.teacher, person.track, person.department, person.title, `${portrait.width}x${portrait.height}`]));
    return true;
  });
  return { filename: `pspa-job-${task.jobId}.zip`, stream };
}
