"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

/** Copies `text` to the clipboard and says so (politely, for screen readers too). */
export function CopyButton({ text, label = "Copy", className = "" }: { text: string; label?: string; className?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <Button type="button" variant="secondary" onClick={() => void copy()}>
        {state === "copied" ? "Copied" : label}
      </Button>
      <span aria-live="polite" className={state === "failed" ? "text-xs text-red-600" : "sr-only"}>
        {state === "copied" ? "Copied to the clipboard." : state === "failed" ? "Copy failed: select the text and copy it." : ""}
      </span>
    </span>
  );
}
