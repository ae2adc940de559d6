/** "1 product", "3 products", "1 agency", "0 agencies": for messages, from the plural noun. */
export function countNoun(n: number, plural: string): string {
  if (n === 1) return `1 ${plural.endsWith("ies") ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, "")}`;
  return `${n} ${plural}`;
}
