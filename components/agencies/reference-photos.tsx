"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useDropzone } from "react-dropzone";
import { errorMessage } from "./api-errors";
import type { Subject } from "./types";
import { uploadWithProgress } from "@/lib/client/upload-with-progress";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";

type Reference = ApiResponse<"/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}/references", "get">["references"][number];

const THUMB = 48;
const tile = "relative h-12 w-12 shrink-0 overflow-hidden rounded border border-slate-200 bg-slate-100";

/** A confirmed face shown centred in its photo's thumbnail (the box is in the photo's own pixels). */
function FaceTile({ r }: { r: Reference }) {
  const { face_box: box, photo_width: w, photo_height: h } = r;
  if (!r.thumbnail_url || !w || !h || !box.w) return <div className={tile} />;
  const scale = THUMB / (box.w * 1.4);
  const cx = (box.x + box.w / 2) * scale, cy = (box.y + box.h / 2) * scale;
  return (
    <div
      className={tile}
      role="img"
      aria-label={`Face confirmed in ${r.filename ?? "a match job photo"}`}
      style={{ backgroundImage: `url(${r.thumbnail_url})`, backgroundSize: `${w * scale}px ${h * scale}px`, backgroundPosition: `${THUMB / 2 - cx}px ${THUMB / 2 - cy}px` }}
    />
  );
}

function RemoveButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled: boolean }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="absolute -right-1 -top-1 flex h-5 w-5 items-center justify-center rounded-full bg-white text-xs text-slate-700 shadow ring-1 ring-slate-300 hover:bg-red-50 hover:text-red-700"
    >
      ×
    </button>
  );
}

/**
 * A subject's reference photos on the roster: up to five portraits (the contract's
 * reference_photo_url counts as one) as thumbnails, added by the file picker or by
 * dropping files on the tile, each removable; and the faces a reviewer confirmed,
 * which matching also uses (removable).
 */
export function ReferencePhotos({ agencyId, subject }: { agencyId: number; subject: Subject }) {
  const queryClient = useQueryClient();
  const path = { agencyId: String(agencyId), subjectId: subject.id };
  const key = ["studio", "agency", agencyId, "subject", subject.id, "references"] as const;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const portraits = useQuery({ queryKey: [...key, "portraits"], queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}/portraits", { params: { path } })) });
  const references = useQuery({ queryKey: [...key, "learned"], queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}/references", { params: { path } })) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err) ?? "That did not work; try again.");
    } finally {
      setBusy(false);
      await refresh();
    }
  };
  const onDrop = useCallback(
    (files: File[]) => {
      if (files.length === 0) return;
      const form = new FormData();
      for (const f of files) form.append("file", f);
      void run(() => uploadWithProgress("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}/portraits", path, form, () => {}));
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [agencyId, subject.id],
  );
  const room = portraits.data ? portraits.data.max_reference_photos - portraits.data.reference_photos : 0;
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop,
    disabled: busy || room <= 0,
    accept: { "image/jpeg": [".jpg", ".jpeg"], "image/png": [".png"], "image/webp": [".webp"], "image/tiff": [".tif", ".tiff"] },
  });
  const learned = references.data?.references.filter((r) => r.source === "confirmed_match") ?? [];

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid={`reference-photos-${subject.student_id}`}>
      {portraits.data?.reference_photo_url ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img src={portraits.data.reference_photo_url} alt={`Reference photo of ${subject.name} (reference_photo_url)`} className={`${tile} object-cover`} />
      ) : null}
      {portraits.data?.portraits.map((p) => (
        <div key={p.id} className="relative">
          {/* eslint-disable-next-line @next/next/no-img-element */}
          <img src={p.thumbnail_url} alt={`Reference portrait ${p.filename} of ${subject.name}`} className={`${tile} object-cover`} />
          <RemoveButton label={`Remove portrait ${p.filename}`} disabled={busy} onClick={() => void run(async () => unwrap(await studioApi.DELETE("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}/portraits/{portraitId}", { params: { path: { ...path, portraitId: p.id } } })))} />
        </div>
      ))}
      {learned.map((r) => (
        <div key={r.id} className="relative" title={`Learned from a confirmed match (${r.filename ?? "photo deleted"})`}>
          <FaceTile r={r} />
          <RemoveButton label={`Remove the face learned from ${r.filename ?? "a confirmed match"}`} disabled={busy} onClick={() => void run(async () => unwrap(await studioApi.DELETE("/v1/services/studio/agencies/{agencyId}/subjects/{subjectId}/references/{referenceId}", { params: { path: { ...path, referenceId: r.id } } })))} />
        </div>
      ))}
      {room > 0 ? (
        <div
          {...getRootProps()}
          className={`flex h-12 cursor-pointer items-center rounded border border-dashed px-2 text-xs ${isDragActive ? "border-brand-600 bg-brand-50 text-brand-700" : "border-slate-300 text-slate-500 hover:border-brand-600"}`}
        >
          <input {...getInputProps()} aria-label={`Add reference portraits of ${subject.name}`} />
          {busy ? "Uploading…" : isDragActive ? "Drop portraits" : `+ Portrait (${room} more)`}
        </div>
      ) : null}
      {portraits.data && portraits.data.reference_photos === 0 && !busy ? <span className="text-xs text-slate-400">No portrait yet</span> : null}
      {error ? (
        <p role="alert" className="basis-full text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
