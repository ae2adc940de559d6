/** Latin letters that do not decompose into a base letter and an accent. */
const LETTERS: Record<string, string> = { Ø: "O", ø: "o", Ł: "L", ł: "l", Đ: "D", đ: "d", Æ: "AE", æ: "ae", Œ: "OE", œ: "oe", ß: "ss", Þ: "Th", þ: "th", Ð: "D", ð: "d" };

/** A name part as a file name can carry it everywhere: accents dropped, anything but letters, digits and "-" removed. */
export function fileSafe(text: string): string {
  return text
    .replace(/[ØøŁłĐđÆæŒœßÞþÐð]/g, (c) => LETTERS[c]!)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9-]+/g, "")
    .slice(0, 40);
}

/**
 * Last and first name from a roster name: "Last, First" when it has a comma,
 * otherwise the last word is the last name ("Ann Marie Archer" → Archer, Ann Marie).
 */
export function splitName(name: string): { last: string; first: string } {
  const comma = name.indexOf(",");
  if (comma >= 0) return { last: name.slice(0, comma).trim(), first: name.slice(comma + 1).trim() };
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return { last: words[0] ?? "", first: "" };
  return { last: words[words.length - 1]!, first: words.slice(0, -1).join(" ") };
}

/**
 * The lab's name for a subject's nth photo: `{student_id}_{last}_{first}_{nn}.jpg`,
 * every part made file-safe (a part that is empty after that is left out).
 */
export function labFileName(studentId: string, name: string, n: number): string {
  const { last, first } = splitName(name);
  const parts = [fileSafe(studentId) || "unknown", fileSafe(last), fileSafe(first)].filter(Boolean);
  return `${parts.join("_")}_${String(n).padStart(2, "0")}.jpg`;
}
