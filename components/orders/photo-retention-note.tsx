/** The order page's line about the studio's order photo retention (a server component: dates given, nothing fetched). */
export function PhotoRetentionNote({ days, removeAfter, removedAt }: { days: number; removeAfter: Date; removedAt: Date | null }) {
  const day = (d: Date) => d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  return (
    <p data-testid="photo-retention" className={`text-sm ${removedAt ? "text-amber-800" : "text-slate-500"}`}>
      {removedAt
        ? `Photos removed after ${days} days (on ${day(removedAt)}): the print files and downloads of this order are gone; the order and its money are kept.`
        : `Photos removed after ${days} days: this order's print files and downloads are kept until ${day(removeAfter)} (Settings → Parent galleries).`}
    </p>
  );
}
