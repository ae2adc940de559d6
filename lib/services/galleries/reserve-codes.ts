import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { galleryAccessCodes } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { codeLookup, newAccessCode, normaliseCode, sealCode } from "./access-codes";

const DRAWS = 5;

/**
 * Each subject's access code for the job, made the first time it is needed
 * (printing the cards before the shoot, or publishing) and kept from then on:
 * whoever asks later (a republish, a second print run, two requests at once)
 * gets the same code. Returns the sealed code by subject id. A code only opens
 * a gallery once that child's gallery is published (open-galleries.ts), so a
 * code reserved for a card opens nothing before.
 */
export async function reserveAccessCodes(tx: Db, accountId: string, jobId: number, subjectIds: string[]): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  const read = async (ids: string[]) => {
    if (ids.length === 0) return;
    const rows = await tx
      .select({ subjectId: galleryAccessCodes.subjectId, sealed: galleryAccessCodes.sealed })
      .from(galleryAccessCodes)
      .where(and(eq(galleryAccessCodes.accountId, accountId), eq(galleryAccessCodes.jobId, jobId), inArray(galleryAccessCodes.subjectId, ids)));
    for (const r of rows) held.set(r.subjectId, r.sealed);
  };
  const wanted = [...new Set(subjectIds)];
  await read(wanted);
  // Insert the missing ones together; a row another request made meanwhile, or
  // a (vanishingly rare) code already taken, is skipped and read or drawn again.
  for (let draw = 0; draw < DRAWS; draw++) {
    const missing = wanted.filter((id) => !held.has(id));
    if (missing.length === 0) return held;
    const rows = missing.map((subjectId) => {
      const code = newAccessCode();
      return { id: newId("gac"), accountId, jobId, subjectId, lookup: codeLookup(normaliseCode(code)!), sealed: sealCode(code) };
    });
    await tx.insert(galleryAccessCodes).values(rows).onConflictDoNothing();
    await read(missing);
  }
  if (wanted.some((id) => !held.has(id))) throw new Error(`Could not draw free access codes in ${DRAWS} attempts.`);
  return held;
}
