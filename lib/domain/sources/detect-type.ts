/** File types the services accept, decided by magic bytes (file-type), never by name or header. */
export const ACCEPTED_TYPES = {
  "image/jpeg": { kind: "image", ext: "jpg" },
  "image/png": { kind: "image", ext: "png" },
  "image/webp": { kind: "image", ext: "webp" },
  "image/tiff": { kind: "image", ext: "tif" },
  "application/pdf": { kind: "pdf", ext: "pdf" },
} as const;

export type AcceptedMime = keyof typeof ACCEPTED_TYPES;

export async function detectType(bytes: Uint8Array): Promise<{ mime: string; ext: string } | undefined> {
  const { fileTypeFromBuffer } = await import("file-type");
  return fileTypeFromBuffer(bytes);
}

export function isAccepted(mime: string | undefined): mime is AcceptedMime {
  return !!mime && mime in ACCEPTED_TYPES;
}
