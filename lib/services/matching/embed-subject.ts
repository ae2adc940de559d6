import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { faceReferences, subjectPortraits, subjects, type ReferenceProblem } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { describeFaces, EMBEDDING_MODEL, isFaceInputError, type DescribedFace } from "@/lib/engines/ml/faces";
import { photoSourceOf, referencePhotoBytes, ReferencePhotoError } from "./reference-bytes";

type SubjectRow = typeof subjects.$inferSelect;
type PortraitRow = typeof subjectPortraits.$inferSelect;
export type EmbedOutcome = { created: number; kept: number; problems: ReferenceProblem[] };

/**
 * A second face at least this share of the main face's width makes a portrait
 * ambiguous (two children in the frame); a much smaller one (a face on a poster
 * behind, a passer-by) is ignored.
 */
const SECOND_FACE_SHARE = 0.6;

/** The one face a reference portrait must show, or why it does not. */
export function portraitFace(faces: DescribedFace[]): { face: DescribedFace } | { reason: "no_face" | "multiple_faces"; count: number } {
  if (faces.length === 0) return { reason: "no_face", count: 0 };
  const [main, second] = [...faces].sort((a, b) => b.box.w - a.box.w);
  if (second && second.box.w >= SECOND_FACE_SHARE * main!.box.w) return { reason: "multiple_faces", count: faces.length };
  return { face: main! };
}

/** A photo a subject's references are made from: the contract's reference_photo_url (portraitId null) or an uploaded portrait. */
type PortraitSource = { portraitId: string | null; photoSource: string; label: string; bytes: (signal?: AbortSignal) => Promise<Buffer> };

export function portraitSources(subject: SubjectRow, portraits: PortraitRow[]): PortraitSource[] {
  const out: PortraitSource[] = [];
  if (subject.referencePhotoKey || subject.referencePhotoUrl) out.push({ portraitId: null, photoSource: photoSourceOf(subject), label: "The reference photo", bytes: (signal) => referencePhotoBytes(subject, signal) });
  for (const p of portraits) {
    out.push({
      portraitId: p.id,
      photoSource: p.storageKey,
      label: `The reference portrait ${p.filename}`,
      bytes: async () => {
        const object = await storage().get(p.storageKey);
        if (!object) throw new ReferencePhotoError("photo_missing", `The reference portrait ${p.filename} is no longer in storage; upload it again.`);
        return object.body;
      },
    });
  }
  return out;
}

/** The face a portrait's bytes give, or the problem in words (no face, several, unreadable). */
export async function describePortrait(bytes: Buffer, label: string): Promise<{ face: DescribedFace } | { reason: string; message: string }> {
  try {
    const picked = portraitFace((await describeFaces(bytes, { maxFaces: 5 })).faces);
    if ("face" in picked) return picked;
    if (picked.reason === "no_face") return { reason: "no_face", message: `No face was found in ${label.replace(/^The /, "the ")}: use a portrait where the face is clearly visible.` };
    return { reason: "multiple_faces", message: `${label} shows ${picked.count} faces: use a portrait of this person alone.` };
  } catch (err) {
    if (isFaceInputError(err)) return { reason: "unreadable", message: `${label} cannot be used: ${err.message}` };
    throw err;
  }
}

export function referenceRow(subject: Pick<SubjectRow, "id" | "accountId" | "agencyId">, face: DescribedFace, from: { source: "portrait" | "confirmed_match"; portraitId?: string | null; matchFaceId?: string | null; photoSource: string }) {
  return {
    id: newId("fref"),
    subjectId: subject.id,
    accountId: subject.accountId,
    agencyId: subject.agencyId,
    source: from.source,
    portraitId: from.portraitId ?? null,
    matchFaceId: from.matchFaceId ?? null,
    embedding: Array.from(face.embedding),
    model: EMBEDDING_MODEL,
    photoSource: from.photoSource,
    faceBox: roundBox(face.box),
    createdAt: new Date(),
  };
}

/**
 * Embeds each of a subject's reference photos (its reference_photo_url and its
 * uploaded portraits) that has no embedding from that photo and this model yet.
 * A photo that cannot be used is reported and its older embedding dropped: it no
 * longer describes a photo on the roster. Portrait embeddings of photos gone from
 * the roster, and confirmed-match embeddings of another model, are dropped too.
 */
export async function embedSubject(db: Db, subject: SubjectRow, signal?: AbortSignal): Promise<EmbedOutcome> {
  const portraits = await db.select().from(subjectPortraits).where(eq(subjectPortraits.subjectId, subject.id)).orderBy(asc(subjectPortraits.createdAt));
  const sources = portraitSources(subject, portraits);
  const existing = await db
    .select({ id: faceReferences.id, portraitId: faceReferences.portraitId, photoSource: faceReferences.photoSource, model: faceReferences.model })
    .from(faceReferences)
    .where(and(eq(faceReferences.subjectId, subject.id), eq(faceReferences.source, "portrait")));
  const current = (s: PortraitSource) => existing.find((e) => e.portraitId === s.portraitId && e.photoSource === s.photoSource && e.model === EMBEDDING_MODEL);
  const keep = new Set(sources.map(current).filter((e) => e).map((e) => e!.id));
  const stale = existing.filter((e) => !keep.has(e.id)).map((e) => e.id);
  if (stale.length) await db.delete(faceReferences).where(inArray(faceReferences.id, stale));
  await db.delete(faceReferences).where(and(eq(faceReferences.subjectId, subject.id), eq(faceReferences.source, "confirmed_match"), ne(faceReferences.model, EMBEDDING_MODEL)));

  const outcome: EmbedOutcome = { created: 0, kept: keep.size, problems: [] };
  for (const source of sources) {
    if (current(source)) continue;
    let described: Awaited<ReturnType<typeof describePortrait>>;
    try {
      described = await describePortrait(await source.bytes(signal), source.label);
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (err instanceof ReferencePhotoError) described = { reason: err.reason, message: err.message };
      else throw err;
    }
    if (!("face" in described)) {
      outcome.problems.push({ student_id: subject.studentId, subject_id: subject.id, portrait_id: source.portraitId, reason: described.reason, message: described.message });
      continue;
    }
    await db.insert(faceReferences).values(referenceRow(subject, described.face, { source: "portrait", portraitId: source.portraitId, photoSource: source.photoSource }));
    outcome.created++;
  }
  return outcome;
}

export const roundBox = (b: { x: number; y: number; w: number; h: number }) => ({ x: Math.round(b.x), y: Math.round(b.y), w: Math.round(b.w), h: Math.round(b.h) });
