// What the tests of files the lab gets late share (a held file fixed after its batch
// was sent, an order shipped in two batches): a wallet and a 3.5 x 5 without bleed,
// crops of the 1200 x 900 test original that hold or print them, and a direct batch of
// the job rendered and made ready by the batch job's own steps (no runner).
import { expect } from "vitest";
import * as batchesRoute from "@/app/v1/production/batches/route";
import type { Db } from "@/lib/foundation/db/types";
import { filesToRender, finishBatch } from "@/lib/services/production/batch-steps";
import { renderPrintFiles } from "@/lib/services/production/render-print-files";
import { call } from "../http";

export const WALLET_AND_FIVE = [
  { key: "wallet", width_in: 2, height_in: 2.5, bleed_mm: 0, min_ppi: 300, color_mode: "rgb" as const },
  { key: "five", width_in: 3.5, height_in: 5, bleed_mm: 0, min_ppi: 250, color_mode: "rgb" as const },
];
/** 240 x 300 px of the 1200 x 900 original: 120 ppi at 2 x 2.5 in, held. */
export const TINY = { x: 0.1, y: 0.1, width: 0.2, height: 1 / 3 };
/** 540 x 675 px: 270 ppi, printed. */
export const PORTRAIT = { x: 0.1, y: 0.1, width: 0.45, height: 0.75 };
export const LANDSCAPE = { x: 0.05, y: 0.1, width: 0.875, height: 735 / 900 };

/** A direct batch of the job, rendered and ready: its id and how many orders it took. */
export async function readyDirectBatch(db: Db, token: string, accountId: string, jobId: number) {
  const res = await call(batchesRoute, "POST", "/v1/production/batches", { token, body: { shipping: "direct", job_id: jobId } });
  expect(res.status, res.text).toBe(202);
  const id = res.json.id as string;
  await renderPrintFiles(db, accountId, await filesToRender(db, accountId, id));
  expect(await finishBatch(db, accountId, id)).toBe("ready");
  return { id, orderCount: res.json.order_count as number };
}
