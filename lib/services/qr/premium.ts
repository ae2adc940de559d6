import { ApiError } from "@/lib/foundation/http/api-error";
import type { GenerateQrInput } from "./schemas";

/** Contract 4.5: `single` and `9up` layouts and `logo_url` need the Premium plan. */
export function premiumFeatureUsed(input: Pick<GenerateQrInput, "layout" | "logo_url">): { feature: string; what: string } | null {
  if (input.layout === "single") return { feature: "layout_single", what: "The single-card layout" };
  if (input.layout === "9up") return { feature: "layout_9up", what: "The 9-up layout" };
  if (input.logo_url) return { feature: "logo_url", what: "A custom logo (logo_url)" };
  return null;
}

export function assertPlanAllows(plan: string, input: Pick<GenerateQrInput, "layout" | "logo_url">): void {
  if (plan === "premium") return;
  const used = premiumFeatureUsed(input);
  if (!used) return;
  throw new ApiError(
    402,
    "PREMIUM_REQUIRED",
    `${used.what} needs the Premium plan. On the free plan use layout 4up without a logo, or upgrade.`,
    undefined,
    { feature: used.feature },
  );
}
