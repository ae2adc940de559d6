const LABELS: Record<string, string> = {
  signup_bonus: "Sign-up bonus",
  operator_grant: "Granted by operator",
  bg_remove: "Background removal",
  preflight: "Preflight check",
  ai_fix: "AI fix job",
  pdf_bleed: "PDF bleed",
  pdf_prepress: "PDF full prepress",
  face_crop: "Face crop",
  bulk_qr: "Bulk QR",
  face_match: "AI face matching",
  token_pack: "Token pack, paid by card",
  auto_top_up: "Auto top-up, paid by card",
  token_pack_refund: "Token pack refunded",
  token_pack_dispute: "Token pack disputed",
};

/** A ledger `operation` code in readable words: "bg_remove" -> "Background removal"; a row without one is named by its type. */
export function operationLabel(operation: string | null, type?: string): string {
  if (!operation) return type ? operationLabel(type) : "";
  const known = LABELS[operation];
  if (known) return known;
  const words = operation.replace(/[_-]+/g, " ").trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : operation;
}
