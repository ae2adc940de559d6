import { notFound } from "next/navigation";

/** A positive integer path id, or the page's 404. */
export function routeId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) notFound();
  return id;
}
