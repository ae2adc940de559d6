import exifr from "exifr";

/**
 * When the frame was taken, from its EXIF: DateTimeOriginal with
 * SubSecTimeOriginal (cameras shooting bursts write several frames in the same
 * second) and OffsetTimeOriginal when the camera records its time zone. A
 * camera without an offset is read as UTC, so frames of cameras set to the
 * same clock still merge in order. null when the frame has no such tag.
 */
export async function captureTime(bytes: Uint8Array): Promise<Date | null> {
  let tags: Record<string, unknown> | undefined;
  try {
    tags = await exifr.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      pick: ["DateTimeOriginal", "SubSecTimeOriginal", "OffsetTimeOriginal"],
      reviveValues: false,
    });
  } catch {
    return null; // no EXIF, or EXIF exifr cannot parse: the frame is ordered by the rule for frames without a time
  }
  return exifDate(tags?.DateTimeOriginal, tags?.SubSecTimeOriginal, tags?.OffsetTimeOriginal);
}

/** "2026:05:14 09:31:02" + "45" + "+02:00" as a Date; null for a missing or malformed value. */
export function exifDate(dateTime: unknown, subSec: unknown, offset: unknown): Date | null {
  if (typeof dateTime !== "string") return null;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(dateTime.trim());
  if (!m) return null;
  const digits = String(subSec ?? "").trim().replace(/\D.*$/, "");
  const millis = digits ? Math.round(Number(`0.${digits}`) * 1000) : 0;
  const zone = typeof offset === "string" && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : "Z";
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.${String(Math.min(millis, 999)).padStart(3, "0")}${zone}`;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}
