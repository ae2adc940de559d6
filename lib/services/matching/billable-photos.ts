import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { jobFiles } from "@/lib/foundation/db/schema";
import { requireJob } from "@/lib/services/agencies/agency-jobs";
import { cardFileIds } from "./card-frames";
import { MATCH_PRICE_PER_FILE } from "./limits";

type PhotoRef = { id: number; filename: string };

/**
 * The photos a match job bills among those given: all but the QR cards a sort
 * found among them (cards are not matched, nor charged). The one count both the
 * debit (acceptMatchJob) and the page's estimate read, so they cannot differ.
 */
export async function billablePhotos<P extends PhotoRef>(db: Db, accountId: string, listed: P[]): Promise<{ photos: P[]; cards: number }> {
  const cards = await cardFileIds(db, accountId, listed.map((f) => f.id));
  return { photos: listed.filter((f) => !cards.has(f.id)), cards: cards.size };
}

/**
 * What matching every photo of a job would cost now (the Match button's label):
 * the photos billed, the cards left out and the tokens, counted as the debit counts.
 */
export async function matchEstimate(db: Db, accountId: string, agencyId: number, jobId: number) {
  await requireJob(db, accountId, agencyId, jobId);
  const files = await db
    .select({ id: jobFiles.id, filename: jobFiles.filename })
    .from(jobFiles)
    .where(and(eq(jobFiles.jobId, jobId), eq(jobFiles.accountId, accountId)))
    .orderBy(asc(jobFiles.id));
  const { photos, cards } = await billablePhotos(db, accountId, files);
  return { photos: photos.length, cards_skipped: cards, tokens: photos.length * MATCH_PRICE_PER_FILE };
}
