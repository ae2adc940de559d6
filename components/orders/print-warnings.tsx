"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { parentApi } from "@/lib/client/parent-session";
import type { Crop } from "@/lib/services/orders/crop";

/** A print item (`item:<id>`) or a package (`package:<id>`, each of its prints), as the cart's choice names it. */
type Props = { token: string; photoId: string; choice: string; crop: Crop | null; backgroundId: string | null };

/** The crop is asked about once the parent stops moving it for this long. */
const SETTLE_MS = 400;
/** The crop sent rounded (fractions to 4 places: well under a pixel of any preview), so a settled box is one ask. */
const round = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * What production would hold this print for, told before paying in the hold's own words
 * (the server judges: the face over the print's safe area where the crop puts it; on a
 * background, the child's head cut by the photo's top inside the crop). Asked again once
 * the crop settles; nothing shown while asking or when the answer is nothing.
 */
export function PrintWarnings({ token, photoId, choice, crop, backgroundId }: Props) {
  const [settled, setSettled] = useState(crop);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(crop), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [crop]);
  const box = settled ? { x: round(settled.x), y: round(settled.y), width: round(settled.width), height: round(settled.height) } : {};
  const warnings = useQuery({
    queryKey: ["parent", "print-warnings", token, photoId, choice, backgroundId, box],
    staleTime: 60_000,
    queryFn: async () => {
      const [kind, id] = choice.split(":") as [string, string];
      const asked = kind === "package" ? { package_id: id } : { item_id: id };
      const { data } = await parentApi(token).GET("/v1/parent/photos/{photoId}/print-warnings", { params: { path: { photoId }, query: { ...asked, ...box, ...(backgroundId ? { background_id: backgroundId } : {}) } } });
      return data?.warnings ?? [];
    },
  });
  if (!warnings.data?.length) return null;
  return (
    <ul data-testid="print-warnings" className="space-y-1">
      {warnings.data.map((w) => (
        <li key={`${w.item_id}:${w.code}:${w.message}`} role="alert" data-testid={`print-warning-${w.code}`} className="text-sm text-amber-700">
          {w.message}
        </li>
      ))}
    </ul>
  );
}
