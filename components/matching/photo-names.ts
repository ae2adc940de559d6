/** `Ada Lovelace` → `Lovelace_Ada`; letters, digits and hyphens only, as labs and yearbook tools expect. */
function lastFirst(name: string): string {
  const clean = (s: string) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9-]+/g, "-").replace(/^-+|-+$/g, "");
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "unnamed";
  const last = clean(words.at(-1)!);
  const first = clean(words.slice(0, -1).join("-"));
  return first ? `${last}_${first}` : last;
}

/**
 * One file name per matched photo of each child: `{student_id}_{last}_{first}_{nn}.jpg`,
 * numbered from 01 per child in the order given (a group photo is in each child's set).
 */
export function photoNamesByChild<T extends { studentId: string; name: string }>(photos: T[]): (T & { fileName: string })[] {
  const counts = new Map<string, number>();
  return photos.map((p) => {
    const n = (counts.get(p.studentId) ?? 0) + 1;
    counts.set(p.studentId, n);
    const id = p.studentId.replace(/[^A-Za-z0-9-]+/g, "-");
    return { ...p, fileName: `${id}_${lastFirst(p.name)}_${String(n).padStart(2, "0")}.jpg` };
  });
}
