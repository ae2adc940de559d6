import { and, eq, sql } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "@/lib/foundation/db/types";
import { accounts, gallerySettings, uploads } from "@/lib/foundation/db/schema";
import { badRequest } from "@/lib/foundation/http/api-error";
import { storage } from "@/lib/domain/storage";
import type { SettingsBody } from "./schemas";
import type { Watermark } from "./watermark";

export type GallerySettingsRow = typeof gallerySettings.$inferSelect;

/** A studio that never saved settings has these (the sweeps read them for studios without a row). */
export const GALLERY_SETTING_DEFAULTS = { expiryDays: 30, watermarkText: null, watermarkLogoKey: null, groupGallery: true, downloadsEnabled: false, reminderDays: 3, orderPhotoRetentionDays: 365, watermarkVersion: 1 } as const;

/** The studio's gallery settings (the defaults for a studio that never saved any). */
export async function gallerySettingsOf(db: Db, accountId: string): Promise<Omit<GallerySettingsRow, "updatedAt">> {
  const [row] = await db.select().from(gallerySettings).where(eq(gallerySettings.accountId, accountId));
  return row ?? { accountId, ...GALLERY_SETTING_DEFAULTS };
}

export function toPublicSettings(s: Omit<GallerySettingsRow, "updatedAt">) {
  return { expiry_days: s.expiryDays, watermark_text: s.watermarkText, watermark_logo: s.watermarkLogoKey !== null, group_gallery: s.groupGallery, downloads_enabled: s.downloadsEnabled, reminder_days: s.reminderDays, order_photo_retention_days: s.orderPhotoRetentionDays };
}

/** What previews are marked with: the logo when set, else the text, else the studio's name. */
export async function watermarkOf(db: Db, accountId: string): Promise<{ watermark: Watermark; version: number }> {
  const s = await gallerySettingsOf(db, accountId);
  if (s.watermarkLogoKey) {
    const logo = await storage().get(s.watermarkLogoKey);
    if (logo) return { watermark: { logo: logo.body }, version: s.watermarkVersion };
  }
  if (s.watermarkText) return { watermark: { text: s.watermarkText }, version: s.watermarkVersion };
  const [account] = await db.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, accountId));
  return { watermark: { text: account?.name || "Proof" }, version: s.watermarkVersion };
}

const MAX_LOGO_BYTES = 5 * 1024 * 1024;

/** The logo from one of the studio's own uploads, checked to be a picture and kept as a PNG under galleries/. */
async function storeLogo(db: Db, accountId: string, url: string, version: number): Promise<string> {
  const key = storage().keyFromOwnUrl(url);
  const [upload] = key ? await db.select({ id: uploads.id }).from(uploads).where(and(eq(uploads.accountId, accountId), eq(uploads.storageKey, key))) : [];
  if (!key || !upload) throw badRequest("URL_NOT_ALLOWED", "watermark_logo_url must be a signed URL of one of this studio's uploads (POST /v1/uploads).", { field: "watermark_logo_url" });
  const object = await storage().get(key);
  if (!object || object.body.byteLength > MAX_LOGO_BYTES) throw badRequest("INVALID_LOGO", "The logo must be a PNG or JPEG of at most 5 MB.", { field: "watermark_logo_url" });
  const png = await sharp(object.body)
    .rotate()
    .resize(1200, 1200, { fit: "inside", withoutEnlargement: true })
    .png()
    .toBuffer()
    .catch(() => {
      throw badRequest("INVALID_LOGO", "The logo could not be read as a picture (PNG or JPEG).", { field: "watermark_logo_url" });
    });
  const logoKey = `galleries/${accountId}/watermark-logo-${version}.png`;
  await storage().put(logoKey, png, "image/png");
  return logoKey;
}

/**
 * PUT /v1/services/studio/gallery-settings. A watermark change moves the
 * version, so the next publish renders every preview again with the new mark.
 */
export async function updateGallerySettings(db: Db, accountId: string, body: SettingsBody) {
  const current = await gallerySettingsOf(db, accountId);
  const watermarkChanges = body.watermark_text !== undefined || body.watermark_logo_url !== undefined;
  const version = watermarkChanges ? current.watermarkVersion + 1 : current.watermarkVersion;
  let logoKey = current.watermarkLogoKey;
  if (body.watermark_logo_url === null) logoKey = null;
  else if (body.watermark_logo_url !== undefined) logoKey = await storeLogo(db, accountId, body.watermark_logo_url, version);
  const values = {
    expiryDays: body.expiry_days ?? current.expiryDays,
    watermarkText: body.watermark_text !== undefined ? body.watermark_text : current.watermarkText,
    watermarkLogoKey: logoKey,
    groupGallery: body.group_gallery ?? current.groupGallery,
    downloadsEnabled: body.downloads_enabled ?? current.downloadsEnabled,
    reminderDays: body.reminder_days ?? current.reminderDays,
    orderPhotoRetentionDays: body.order_photo_retention_days ?? current.orderPhotoRetentionDays,
    watermarkVersion: version,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(gallerySettings)
    .values({ accountId, ...values })
    .onConflictDoUpdate({ target: gallerySettings.accountId, set: { ...values, updatedAt: sql`now()` } })
    .returning();
  if (current.watermarkLogoKey && current.watermarkLogoKey !== logoKey) await storage().delete(current.watermarkLogoKey);
  return toPublicSettings(row!);
}
