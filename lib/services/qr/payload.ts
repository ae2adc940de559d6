/**
 * What a card's QR code says: `psqr1:<job_id>:<student_id>`, each id
 * percent-encoded (encodeURIComponent, so a ":" or "%" inside an id is escaped
 * and the three parts always split cleanly on ":"). Example:
 * `psqr1:SPRING-2026:S000123`. The version tag lets the format change later
 * without misreading old cards. Kept short on purpose: fewer bytes means a
 * lower QR version, bigger modules and a longer scanning distance.
 */
export const QR_PAYLOAD_PREFIX = "psqr1";

export function qrPayload(jobId: string, studentId: string): string {
  return `${QR_PAYLOAD_PREFIX}:${encodeURIComponent(jobId)}:${encodeURIComponent(studentId)}`;
}

/** The job and subject a scanned payload names, or null when it is not one of ours. */
export function parseQrPayload(text: string): { jobId: string; studentId: string } | null {
  const parts = text.split(":");
  if (parts.length !== 3 || parts[0] !== QR_PAYLOAD_PREFIX || !parts[1] || !parts[2]) return null;
  try {
    return { jobId: decodeURIComponent(parts[1]), studentId: decodeURIComponent(parts[2]) };
  } catch {
    return null;
  }
}
