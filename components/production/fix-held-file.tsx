"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { QueryError } from "@/components/ui/query-error";
import { CropEditor } from "@/components/orders/crop-editor";
import { studioApi, unwrap, type ApiBody, type ApiResponse } from "@/lib/client/typed-api";
import { largestCrop, type Crop } from "@/lib/services/orders/crop";
type PrintFile = ApiResponse<"/v1/production/orders/{id}/print-files", "get">["data"][number];
type Fix = ApiBody<"/v1/production/print-files/{id}", "patch">;

/**
 * A held print file's fix on the order page: release a doubtful cut-out or print it
 * without its background, re-crop it, or choose another photo of the child (the
 * storefront's crop editor on the photo's preview). Saving renders and checks the
 * file again; the answer replaces it in the order's list (rendered, or held anew).
 */
export function FixHeldFile({ file }: { file: PrintFile }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [photoId, setPhotoId] = useState<string | null>(null);
  const [crop, setCrop] = useState<Crop | null>(null);
  const choices = useQuery({
    queryKey: ["production", "print-file", file.id],
    queryFn: async () => unwrap(await studioApi.GET("/v1/production/print-files/{id}", { params: { path: { id: file.id } } })),
    enabled: open,
  });
  const fix = useMutation({
    mutationFn: async (body: Fix) => unwrap(await studioApi.PATCH("/v1/production/print-files/{id}", { params: { path: { id: file.id } }, body })),
    onSuccess: () => {
      setOpen(false);
      void queryClient.invalidateQueries({ queryKey: ["production", "order", file.order_id] });
    },
  });

  if (!open) {
    return (
      <Button variant="secondary" className="mt-2 w-full" onClick={() => setOpen(true)} data-testid="fix-held">
        Fix…
      </Button>
    );
  }
  if (choices.error) return <QueryError title="Could not load the choices." error={choices.error} onRetry={() => void choices.refetch()} />;
  const data = choices.data;
  if (!data) return <p className="mt-2 text-slate-500">Loading…</p>;
  const chosen = data.fix.photos.find((p) => p.id === (photoId ?? data.fix.photo_id));
  const size = data.fix.size;
  const shownCrop = crop ?? (photoId === null && data.fix.crop ? data.fix.crop : chosen ? largestCrop(chosen, size) : null);
  const save = () => {
    if (!shownCrop) return;
    fix.mutate(photoId && photoId !== data.fix.photo_id ? { action: "photo", photo_id: photoId, crop: shownCrop } : { action: "recrop", crop: shownCrop });
  };

  return (
    <div className="mt-2 space-y-2" data-testid="fix-panel">
      {file.hold_code === "matte_doubtful" ? (
        <Button variant="secondary" className="w-full" disabled={fix.isPending} onClick={() => fix.mutate({ action: "release_matte" })}>
          The cut-out is fine: print it
        </Button>
      ) : null}
      {file.background_id ? (
        <Button variant="secondary" className="w-full" disabled={fix.isPending} onClick={() => fix.mutate({ action: "drop_background" })}>
          Print without the background
        </Button>
      ) : null}
      {data.fix.photos.length > 1 ? (
        <div>
          <p className="text-slate-600">Photo of the child:</p>
          <div className="mt-1 flex flex-wrap gap-1">
            {data.fix.photos.map((p) => (
              <button
                key={p.id}
                type="button"
                aria-pressed={p.id === (photoId ?? data.fix.photo_id)}
                className={`rounded border-2 ${p.id === (photoId ?? data.fix.photo_id) ? "border-brand-600" : "border-transparent"}`}
                onClick={() => {
                  setPhotoId(p.id);
                  setCrop(null);
                }}
              >
                {/* eslint-disable-next-line @next/next/no-img-element -- a signed preview URL */}
                <img src={p.preview_url} alt={`Photo ${p.id}`} className="h-12 w-12 rounded object-cover" />
              </button>
            ))}
          </div>
        </div>
      ) : null}
      {chosen && shownCrop ? <CropEditor photo={chosen} size={size} crop={shownCrop} onChange={setCrop} label={`Crop of ${file.product_code}`} /> : null}
      {fix.error ? <QueryError title="The fix was refused." error={fix.error} /> : null}
      <div className="flex gap-2">
        <Button className="flex-1" disabled={fix.isPending || !shownCrop} onClick={save}>
          {fix.isPending ? "Rendering…" : "Save and render"}
        </Button>
        <Button variant="secondary" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
