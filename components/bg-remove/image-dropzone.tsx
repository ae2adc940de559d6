"use client";

import { useDropzone, type FileRejection } from "react-dropzone";

const ACCEPT = { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/webp": [".webp"] };
const MAX_BYTES = 50 * 1024 * 1024;

/** Drop (or pick) one or many JPEG, PNG or WebP images. */
export function ImageDropzone({ onFiles, onRejected, disabled }: { onFiles: (files: File[]) => void; onRejected: (messages: string[]) => void; disabled?: boolean }) {
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    accept: ACCEPT,
    multiple: true,
    maxSize: MAX_BYTES,
    disabled,
    onDrop: (accepted: File[], rejected: FileRejection[]) => {
      if (accepted.length) onFiles(accepted);
      if (rejected.length) {
        onRejected(rejected.map((r) => `${r.file.name}: ${r.errors[0]?.code === "file-too-large" ? "larger than 50 MB" : "not a JPEG, PNG or WebP image"}`));
      }
    },
  });
  return (
    <div
      {...getRootProps()}
      className={`flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed px-6 py-10 text-center transition ${
        isDragActive ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-slate-50 hover:border-slate-400"
      } ${disabled ? "cursor-not-allowed opacity-60" : ""}`}
    >
      <input {...getInputProps()} aria-label="Images to cut out" data-testid="bg-remove-input" />
      <p className="text-sm font-medium text-slate-800">{isDragActive ? "Drop the images here" : "Drag and drop photos here, or click to choose"}</p>
      <p className="mt-1 text-xs text-slate-500">JPEG, PNG or WebP, up to 50 MB and 50 megapixels each (a larger photo is refused before it is charged). One job per image.</p>
    </div>
  );
}
