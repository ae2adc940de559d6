import type { PreflightCheckParams } from "@/lib/foundation/db/schema/preflight";
import type { CheckTargets } from "./issue";
import { DEFAULT_REQUIRED_DPI, minPpiFor } from "./product-types";
import type { CreateCheckBody } from "./schemas";

/**
 * What a full check verifies. The required resolution is the profile's
 * requiredDpi, else the product type's minimum from the DPI table, else 300.
 */
export function resolveCheckTargets(body: CreateCheckBody): CheckTargets {
  const profile = body.productProfile ?? {};
  const requiredDpi = profile.requiredDpi ?? (body.productType ? minPpiFor(body.productType) : DEFAULT_REQUIRED_DPI);
  const requiredDpiSource = profile.requiredDpi !== undefined ? "productProfile" : body.productType ? "productType" : "default";
  const targets: CheckTargets = { requiredDpi, requiredDpiSource };
  if (profile.requiredColorMode) targets.requiredColorMode = profile.requiredColorMode;
  if (profile.bleedMm !== undefined) targets.bleedMm = profile.bleedMm;
  if (body.canvasWidthInches !== undefined && body.canvasHeightInches !== undefined) targets.canvas = { widthIn: body.canvasWidthInches, heightIn: body.canvasHeightInches };
  if (body.fileType) targets.declaredFileType = body.fileType;
  if (body.productType) targets.productType = body.productType;
  return targets;
}

/** The stored (and returned) form of the targets: the request's own field names. */
export function targetsToParams(t: CheckTargets): PreflightCheckParams {
  return {
    declaredFileType: t.declaredFileType,
    productType: t.productType,
    canvasWidthInches: t.canvas?.widthIn,
    canvasHeightInches: t.canvas?.heightIn,
    requiredDpi: t.requiredDpi,
    requiredDpiSource: t.requiredDpiSource,
    requiredColorMode: t.requiredColorMode,
    bleedMm: t.bleedMm,
  };
}
