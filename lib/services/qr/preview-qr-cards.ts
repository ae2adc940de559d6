import { cardsPerPage } from "./layouts";
import { loadLogo, LogoError } from "./load-logo";
import { renderQrCards } from "./render-cards";
import { ApiError } from "@/lib/foundation/http/api-error";
import { cardSubjects, validateQrRequest, type GalleryCodeSource } from "./generate-qr-cards";
import type { Db } from "@/lib/foundation/db/types";
import type { GenerateQrInput } from "./schemas";

/**
 * POST /v1/services/studio/qr/preview: free. The first page only, exactly as
 * it will print but stamped PREVIEW, so the editor can show it before the
 * caller pays. Same validation (and the same plan rules) as generate; with
 * `gallery_job_id` it shows the real codes, reserved as generate would (the
 * same ones print later). The roster check and the reservation cover every
 * card, not only the first page's, so a student off the roster on page 9 is
 * the preview's 400 too, before the caller pays for a run generate refuses.
 */
export async function previewQrCards(db: Db, account: { id: string; plan: string }, input: GenerateQrInput, galleryCodes?: GalleryCodeSource): Promise<Uint8Array> {
  await validateQrRequest(account.plan, input);
  const all = await db.transaction((tx) => cardSubjects(tx, account.id, input, galleryCodes));
  const subjects = all.slice(0, cardsPerPage(input.layout));
  let logo = null;
  if (input.logo_url) {
    try {
      logo = await loadLogo(input.logo_url);
    } catch (err) {
      if (err instanceof LogoError) throw new ApiError(422, "LOGO_UNUSABLE", err.message, { field: "logo_url" });
      throw err;
    }
  }
  const { pdf } = await renderQrCards({
    jobId: input.job_id,
    schoolName: input.school_name,
    layout: input.layout,
    pageSize: input.page_size,
    logo,
    subjects,
    watermark: "PREVIEW",
  });
  return pdf;
}
