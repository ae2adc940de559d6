import { cardsPerPage } from "./layouts";
import { loadLogo, LogoError } from "./load-logo";
import { renderQrCards } from "./render-cards";
import { ApiError } from "@/lib/foundation/http/api-error";
import { validateQrRequest } from "./generate-qr-cards";
import type { GenerateQrInput } from "./schemas";

/**
 * POST /v1/services/studio/qr/preview: free. The first page only, exactly as
 * it will print but stamped PREVIEW, so the editor can show it before the
 * caller pays. Same validation (and the same plan rules) as generate.
 */
export async function previewQrCards(account: { plan: string }, input: GenerateQrInput): Promise<Uint8Array> {
  await validateQrRequest(account.plan, input);
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
    subjects: input.subjects.slice(0, cardsPerPage(input.layout)),
    watermark: "PREVIEW",
  });
  return pdf;
}
