"use client";

import { useState } from "react";
import { studioApi, unwrap } from "@/lib/client/typed-api";

/**
 * "Receipt" on a ledger row paid by card. The URL is asked of the API when clicked
 * (Stripe's receipt or hosted invoice page), and opened in a new tab.
 */
export function ReceiptLink({ transactionId }: { transactionId: string }) {
  const [state, setState] = useState<"idle" | "opening" | "failed">("idle");
  async function open() {
    // The tab is opened in the click itself, so a pop-up blocker lets it through; the receipt's address follows.
    const tab = window.open("", "_blank");
    setState("opening");
    try {
      const { receipt_url } = unwrap(await studioApi.GET("/v1/wallet/transactions/{transactionId}/receipt", { params: { path: { transactionId } } }));
      if (tab) tab.location.href = receipt_url;
      else window.location.href = receipt_url;
      setState("idle");
    } catch {
      tab?.close();
      setState("failed");
    }
  }
  return (
    <button type="button" onClick={() => void open()} disabled={state === "opening"} className="text-xs font-medium text-brand-700 hover:underline disabled:opacity-60" data-testid="receipt-link">
      {state === "opening" ? "Opening receipt…" : state === "failed" ? "Receipt unavailable, try again" : "Receipt"}
    </button>
  );
}
