/**
 * Where switching studio goes from `pathname`: the same page in the other
 * studio, or, from a page of one record (an agency, a match job, a product),
 * the list above it, since that record belongs to the studio left.
 */
export function stayOn(pathname: string): string {
  const [section, ...rest] = pathname.split("/").filter(Boolean);
  if (!section) return "/dashboard";
  // /wallet/top-up is a page of its own, not a record.
  return rest.length && section !== "wallet" ? `/${section}` : pathname;
}
