// A child's published gallery of real photos: the originals in storage, their
// watermarked previews rendered by the galleries' own step, and the gallery token
// a parent's code exchange issues (rows written directly: publishing is the
// galleries' tests' subject).
import sharp from "sharp";
import { getDb } from "@/lib/foundation/db/client";
import { galleries, galleryPhotos, jobFiles, subjects } from "@/lib/foundation/db/schema";
import { newId } from "@/lib/foundation/ids";
import { storage } from "@/lib/domain/storage";
import { renderPreviews } from "@/lib/services/galleries/render-previews";
import { issueParentToken } from "@/lib/services/galleries/parent-token";

export async function childWithPhotos(accountId: string, agencyId: string, jobId: string, photos: Buffer[]) {
  const db = await getDb();
  const subjectId = newId("sub");
  await db.insert(subjects).values({ id: subjectId, accountId, agencyId: Number(agencyId), studentId: `S-${subjectId.slice(-6)}`, name: "Ada Park", className: "2B", teacher: "Ms Baker" });
  const [gallery] = await db.insert(galleries).values({ id: newId("gal"), accountId, jobId: Number(jobId), kind: "subject", subjectId, status: "published", publishedAt: new Date() }).returning();
  const { photoIds, jobFileIds } = await addPhotos(accountId, jobId, gallery!.id, photos, "qr_sort");
  const token = await issueParentToken({ accountId, jobId: Number(jobId), subjectId }, new Date(Date.now() + 3600_000));
  return { token, subjectId, galleryId: gallery!.id, photoIds, jobFileIds };
}

/** The job's published group gallery with these photos (every child's code opens it). */
export async function groupGalleryWith(accountId: string, jobId: string, photos: Buffer[]) {
  const db = await getDb();
  const [gallery] = await db.insert(galleries).values({ id: newId("gal"), accountId, jobId: Number(jobId), kind: "group", status: "published", publishedAt: new Date() }).returning();
  return { galleryId: gallery!.id, ...(await addPhotos(accountId, jobId, gallery!.id, photos, "group")) };
}

/** The originals stored, their job files and gallery photos, and the previews rendered. */
async function addPhotos(accountId: string, jobId: string, galleryId: string, photos: Buffer[], source: "qr_sort" | "group") {
  const db = await getDb();
  const photoIds: string[] = [];
  const jobFileIds: number[] = [];
  for (const [i, photo] of photos.entries()) {
    const key = `parent-photos-test/${galleryId}/${i}.jpg`;
    await storage().put(key, photo, "image/jpeg");
    const meta = await sharp(photo).metadata();
    const [file] = await db
      .insert(jobFiles)
      .values({ accountId, jobId: Number(jobId), filename: `IMG_${i}.jpg`, storageKey: key, thumbnailKey: key, contentType: "image/jpeg", size: photo.length, width: meta.width!, height: meta.height! })
      .returning();
    const [gp] = await db.insert(galleryPhotos).values({ id: newId("gph"), galleryId, accountId, jobFileId: file!.id, source, position: i }).returning();
    photoIds.push(gp!.id);
    jobFileIds.push(file!.id);
  }
  await renderPreviews(db, accountId, Number(jobId), jobFileIds);
  return { photoIds, jobFileIds };
}
