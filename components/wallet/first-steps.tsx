"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { studioApi, unwrap } from "@/lib/client/typed-api";

const STEPS = [
  { href: "/bg-remove?sample=astronaut", title: "Try a cut-out on a sample photo", text: "A portrait is ready in the tray: see the transparent PNG it makes." },
  { href: "/preflight", title: "Check a print file", text: "Upload a PDF or an image: resolution, bleed, colour, fonts and transparency, shown on the page. Included in your plan." },
  { href: "/agencies", title: "Set up an agency and its roster", text: "A school or club, its people (paste or import a CSV) and a job for the day's photos." },
];

/** Where a new account starts: shown until the account has used anything (its ledger holds only the sign-up grant). */
export function FirstSteps() {
  const ledger = useQuery({
    queryKey: ["wallet", "first-steps"],
    queryFn: async () => unwrap(await studioApi.GET("/v1/wallet/transactions", { params: { query: { limit: "2" } } })),
  });
  if (!ledger.data || ledger.data.meta.total > 1) return null;
  return (
    <Card title="First steps">
      <ol className="grid gap-4 sm:grid-cols-3" data-testid="first-steps">
        {STEPS.map((s, i) => (
          <li key={s.href} className="rounded-md border border-slate-200 p-3">
            <Link href={s.href} className="font-medium text-brand-700 hover:underline">
              {i + 1}. {s.title}
            </Link>
            <p className="mt-1 text-sm text-slate-600">{s.text}</p>
          </li>
        ))}
      </ol>
    </Card>
  );
}
