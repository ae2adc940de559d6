// A studio ready to sell: a product, a price sheet with a print, a digital file, a
// package, tax and both shipping options, an agency job that sells from it.
import * as productsRoute from "@/app/v1/products/route";
import * as sheetsRoute from "@/app/v1/price-sheets/route";
import * as jobSheetRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/[jobId]/price-sheet/route";
import * as agenciesRoute from "@/app/v1/services/studio/agencies/route";
import * as jobsRoute from "@/app/v1/services/studio/agencies/[agencyId]/jobs/route";
import { getDb } from "@/lib/foundation/db/client";
import { galleries, galleryPhotos, gallerySettings, jobFiles, subjects } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { issueParentToken } from "@/lib/services/galleries/parent-token";
import { productBody } from "../api/core-fixtures";
import { call } from "../http";

export const SHEET = {
  name: "Spring picture day",
  currency: "usd",
  tax_rate_bps: 825,
  items: [
    { id: "p8x10", kind: "print", price: 1500, lab_cost: 300 },
    { id: "digital", kind: "digital", name: "Digital file", price: 2000, lab_cost: 0 },
  ],
  packages: [{ id: "pkgA", name: "Package A", price: 3000, items: [{ item_id: "p8x10", quantity: 2 }, { item_id: "digital", quantity: 1 }] }],
  shipping: [
    { id: "home", type: "home", name: "To your home", price: 799 },
    { id: "school", type: "school", name: "To the school", batch_date: "2026-12-15" },
  ],
};

export async function sellingStudio(token: string) {
  const product = await call(productsRoute, "POST", "/v1/products", { token, body: productBody({ name: "8x10 print", width_in: 8, height_in: 10 }) });
  if (product.status !== 201) throw new Error(product.text);
  const items = SHEET.items.map((i) => (i.kind === "print" ? { ...i, product_id: product.json.id } : i));
  const sheet = await call(sheetsRoute, "POST", "/v1/price-sheets", { token, body: { ...SHEET, items } });
  if (sheet.status !== 201) throw new Error(sheet.text);
  const agency = await call(agenciesRoute, "POST", "/v1/services/studio/agencies", { token, body: { name: "Oak Elementary", agency_type: "school" } });
  if (agency.status !== 201) throw new Error(agency.text);
  const agencyId = String(agency.json.id);
  const job = await call(jobsRoute, "POST", `/v1/services/studio/agencies/${agencyId}/jobs`, { token, body: { name: "Fall 2026", icp_type: "school" }, params: { agencyId } });
  if (job.status !== 201) throw new Error(job.text);
  const jobId = String(job.json.id);
  const assigned = await call(jobSheetRoute, "PUT", `/v1/services/studio/agencies/${agencyId}/jobs/${jobId}/price-sheet`, { token, body: { price_sheet_id: sheet.json.id }, params: { agencyId, jobId } });
  if (assigned.status !== 200) throw new Error(assigned.text);
  return { productId: product.json.id as string, sheet: sheet.json, sheetId: sheet.json.id as string, agencyId, jobId };
}

/**
 * A parent holding a child's code in that job: a subject, a published gallery of
 * it with photos, the job's group gallery, and the gallery token the code exchange
 * issues (rows written directly: publishing is the galleries' own tests' subject).
 */
export async function parentOf(accountId: string, agencyId: string, jobId: string, opts: { photos?: number; downloads?: boolean } = {}) {
  const db = await getDb();
  const subjectId = newId("sub");
  await db.insert(subjects).values({ id: subjectId, accountId, agencyId: Number(agencyId), studentId: `S-${subjectId.slice(-6)}`, name: "Ada Park" });
  const [gallery] = await db.insert(galleries).values({ id: newId("gal"), accountId, jobId: Number(jobId), kind: "subject", subjectId, status: "published", publishedAt: new Date() }).returning();
  const photoIds: string[] = [];
  for (let i = 0; i < (opts.photos ?? 2); i++) {
    const [file] = await db
      .insert(jobFiles)
      .values({ accountId, jobId: Number(jobId), filename: `IMG_${i}.jpg`, storageKey: `orders-test/${subjectId}/${i}.jpg`, thumbnailKey: `orders-test/${subjectId}/${i}-thumb.jpg`, contentType: "image/jpeg", size: 1000, width: 4000, height: 3000 })
      .returning();
    const [photo] = await db.insert(galleryPhotos).values({ id: newId("gph"), galleryId: gallery!.id, accountId, jobFileId: file!.id, source: "qr_sort", position: i }).returning();
    photoIds.push(photo!.id);
  }
  if (opts.downloads !== undefined) {
    await db.insert(gallerySettings).values({ accountId, downloadsEnabled: opts.downloads }).onConflictDoUpdate({ target: gallerySettings.accountId, set: { downloadsEnabled: opts.downloads } });
  }
  const token = await issueParentToken({ accountId, jobId: Number(jobId), subjectId }, new Date(Date.now() + 3600_000));
  return { token, subjectId, galleryId: gallery!.id, photoIds };
}
