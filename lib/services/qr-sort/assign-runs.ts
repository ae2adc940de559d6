import type { QrSortRole, QrSortWarning } from "@/lib/foundation/db/schema";
import { parseQrPayload } from "@/lib/services/qr/payload";
import { captureOrder } from "./capture-order";

export type FrameInput = { fileId: number | null; filename: string; capturedAt: Date | null; codes: string[]; unreadable: boolean; faceSubjectId?: string | null };
export type RosterEntry = { subjectId: string; studentId: string; name: string };
export type FrameOutcome = {
  sequence: number;
  role: QrSortRole;
  subjectId: string | null;
  studentId: string | null;
  cardPayload: string | null;
  review: string[];
};

/** What a frame's codes say: the student id of a card, or null when none of them is one. */
function cardIn(codes: string[], roster: Map<string, RosterEntry>): { studentId: string; payload: string; others: number } | null {
  const cards = codes.flatMap((text) => {
    const ours = parseQrPayload(text);
    if (ours) return [{ studentId: ours.studentId, payload: text }];
    // Any other QR is a card only when it holds a roster student id exactly (a QR on a T-shirt is not a card).
    const plain = text.trim();
    return roster.has(plain) ? [{ studentId: plain, payload: text }] : [];
  });
  const distinct = [...new Map(cards.map((c) => [c.studentId, c])).values()];
  return distinct.length ? { ...distinct[0]!, others: distinct.length - 1 } : null;
}

/**
 * The studio's rules, applied in capture order: a card frame starts its
 * subject's run, which holds every frame until the next card; frames before the
 * first card are before_first_card; a card whose student id is not on the
 * roster starts an unknown_card run (filed under nobody, to review); the same
 * subject's card again continues that subject (one run) with a warning; a
 * subject whose card is followed by no portrait is reported; a frame whose face
 * clearly matches another subject goes to review (face_disagrees). Returns one
 * outcome per input frame (same index) and the sort's warnings.
 */
export function assignRuns(frames: FrameInput[], rosterList: RosterEntry[]): { outcomes: FrameOutcome[]; warnings: QrSortWarning[] } {
  const roster = new Map(rosterList.map((r) => [r.studentId, r]));
  const order = captureOrder(frames);
  const outcomes: FrameOutcome[] = new Array(frames.length);
  const warnings: QrSortWarning[] = [];
  const cardFrames = new Map<string, number[]>(); // student id -> card frames' file ids
  const portraits = new Map<string, number>(); // subject id -> frames filed under it
  let run: { studentId: string; subject: RosterEntry | null } | null = null;
  const timed = frames.some((f) => f.capturedAt);

  order.forEach((i, sequence) => {
    const f = frames[i]!;
    const review: string[] = [];
    if (f.unreadable) review.push("unreadable");
    if (timed && !f.capturedAt) review.push("no_capture_time");
    const card = f.unreadable ? null : cardIn(f.codes, roster);
    if (card) {
      if (card.others > 0) review.push("several_cards");
      const subject = roster.get(card.studentId) ?? null;
      if (!subject) review.push("unknown_card");
      const seen = cardFrames.get(card.studentId) ?? [];
      seen.push(f.fileId ?? -1);
      cardFrames.set(card.studentId, seen);
      run = { studentId: card.studentId, subject };
      outcomes[i] = { sequence, role: "card", subjectId: subject?.subjectId ?? null, studentId: card.studentId, cardPayload: card.payload, review };
      return;
    }
    const current = run as { studentId: string; subject: RosterEntry | null } | null;
    if (!current) {
      review.push("before_first_card");
      outcomes[i] = { sequence, role: "before_first_card", subjectId: null, studentId: null, cardPayload: null, review };
    } else if (!current.subject) {
      review.push("unknown_card");
      outcomes[i] = { sequence, role: "unknown_card", subjectId: null, studentId: current.studentId, cardPayload: null, review };
    } else {
      portraits.set(current.subject.subjectId, (portraits.get(current.subject.subjectId) ?? 0) + 1);
      // Face matching clearly sees another child of the roster in this frame: the card run may be wrong here.
      if (f.faceSubjectId && f.faceSubjectId !== current.subject.subjectId) review.push("face_disagrees");
      outcomes[i] = { sequence, role: "subject", subjectId: current.subject.subjectId, studentId: current.studentId, cardPayload: null, review };
    }
  });

  for (const [studentId, fileIds] of cardFrames) {
    const subject = roster.get(studentId);
    const ids = fileIds.filter((id) => id >= 0);
    if (!subject) {
      warnings.push({ code: "unknown_card", student_id: studentId, subject_id: null, file_ids: ids, message: `A card for student id ${studentId}, who is not on the roster: its frames are filed under nobody until the next card.` });
      continue;
    }
    if (fileIds.length > 1) {
      warnings.push({ code: "card_repeated", student_id: studentId, subject_id: subject.subjectId, file_ids: ids, message: `${subject.name}'s card (${studentId}) was photographed ${fileIds.length} times; every run after it is filed under ${subject.name}.` });
    }
    if (!portraits.get(subject.subjectId)) {
      warnings.push({ code: "card_without_portraits", student_id: studentId, subject_id: subject.subjectId, file_ids: ids, message: `${subject.name}'s card (${studentId}) is followed by no portrait: the next frame is another card or the last.` });
    }
  }
  if (!timed && frames.length > 0) {
    warnings.push({ code: "no_capture_times", message: "No photo has an EXIF capture time: the frames are in file-name order." });
  }
  return { outcomes, warnings };
}
