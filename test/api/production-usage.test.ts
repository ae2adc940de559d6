import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import * as usageRoute from "@/app/v1/production/usage/route";
import * as fileRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/files/[fileId]/route";
import { getDb } from "@/lib/foundation/db/client";
import { photoMattes, productionUsageEvents } from "@/lib/foundation/db/schema";
import { shutDownBackgroundRemoval } from "@/lib/engines/ml/background-removal";
import { photoMatte } from "@/lib/services/production/person-matte";
import { call, testAccount } from "../http";
import { sellingStudio } from "../support/orders-fixtures";
import { childWithPhotos } from "../support/parent-photos";

// The studio's cut-outs in its production usage: person mattes made by the real
// background-removal engine (a print's full-size one and the storefront's preview),
// counted per studio and per days; another studio's are not in it; a photo deleted since
// keeps its cut-outs in the count (usage is what was made, not what still exists).

afterAll(() => shutDownBackgroundRemoval());

const POSTER = fs.readFileSync(path.join(process.cwd(), "lib/engines/ml/background-removal/fixtures/person-poster.jpg"));
const usage = (token: string, query: Record<string, string> = {}) => {
  const qs = new URLSearchParams(query).toString();
  return call(usageRoute, "GET", `/v1/production/usage${qs ? `?${qs}` : ""}`, { token });
};

describe("production usage", () => {
  it("counts the studio's cut-outs, full and preview, over the days asked (by default this month), never another studio's; bad dates name the field", async () => {
    const a = await testAccount();
    const b = await testAccount();
    const studioA = await sellingStudio(a.token);
    const studioB = await sellingStudio(b.token);
    const kidA = await childWithPhotos(a.account.id, studioA.agencyId, studioA.jobId, [POSTER]);
    const kidB = await childWithPhotos(b.account.id, studioB.agencyId, studioB.jobId, [POSTER]);
    const db = await getDb();
    const preview = await sharp(POSTER).resize({ width: 400 }).jpeg().toBuffer();

    expect((await usage(a.token)).json.cutouts).toEqual({ full: 0, preview: 0, total: 0 });
    // Studio A: a print's matte and a preview's, and the print's asked again (kept: no second run, not counted twice).
    await photoMatte(db, a.account.id, kidA.jobFileIds[0]!, POSTER);
    await photoMatte(db, a.account.id, kidA.jobFileIds[0]!, preview, undefined, "preview");
    await photoMatte(db, a.account.id, kidA.jobFileIds[0]!, POSTER);
    // Studio B: a preview only.
    await photoMatte(db, b.account.id, kidB.jobFileIds[0]!, preview, undefined, "preview");

    const today = new Date().toISOString().slice(0, 10);
    const mine = await usage(a.token);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.json).toEqual({ from: `${today.slice(0, 7)}-01`, to: today, cutouts: { full: 1, preview: 1, total: 2 } });
    expect((await usage(b.token)).json.cutouts).toEqual({ full: 0, preview: 1, total: 1 });

    // A deletes the photo: its mattes go with it, its cut-outs stay counted.
    const fileId = kidA.jobFileIds[0]!;
    const params = { agencyId: String(studioA.agencyId), jobId: String(studioA.jobId), fileId: String(fileId) };
    const deleted = await call(fileRoute, "DELETE", `/v1/services/studio/agencies/${params.agencyId}/jobs/${params.jobId}/files/${params.fileId}`, { token: a.token, params });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expect(await db.select().from(photoMattes).where(eq(photoMattes.jobFileId, fileId))).toEqual([]);
    expect((await usage(a.token)).json.cutouts).toEqual({ full: 1, preview: 1, total: 2 });

    // By days (UTC, both ends included): A's two cut-outs dated late on a day last year are in that day only.
    const lastYear = `${Number(today.slice(0, 4)) - 1}`;
    await db.update(productionUsageEvents).set({ createdAt: new Date(`${lastYear}-03-15T23:30:00Z`) }).where(eq(productionUsageEvents.jobFileId, fileId));
    expect((await usage(a.token, { from: `${lastYear}-03-15`, to: `${lastYear}-03-15` })).json.cutouts).toEqual({ full: 1, preview: 1, total: 2 });
    expect((await usage(a.token, { from: `${lastYear}-03-16`, to: today })).json.cutouts).toEqual({ full: 0, preview: 0, total: 0 });
    expect((await usage(a.token)).json.cutouts.total).toBe(0);

    for (const [query, field] of [
      [{ from: "2026-13-01" }, "from"],
      [{ from: "2026-11-20", to: "2026-11-01" }, "to"],
      [{ month: "2026-11" }, "month"],
    ] as const) {
      const bad = await usage(a.token, query);
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(JSON.stringify(bad.json.details), JSON.stringify(query)).toContain(field);
    }
  }, 240_000);
});
