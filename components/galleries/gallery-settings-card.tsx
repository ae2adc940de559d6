"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { QueryError } from "@/components/ui/query-error";
import { errorMessage } from "@/components/agencies/api-errors";
import { fieldErrors } from "@/lib/client/field-errors";
import { studioApi, unwrap, type ApiResponse } from "@/lib/client/typed-api";
import { uploadFile } from "@/lib/client/upload-file";

type Settings = ApiResponse<"/v1/services/studio/gallery-settings", "get">;
type Draft = { expiry_days: string; watermark_text: string; group_gallery: boolean; downloads_enabled: boolean; reminder_days: string; order_photo_retention_days: string };
const draftOf = (s: Settings): Draft => ({
  expiry_days: String(s.expiry_days),
  watermark_text: s.watermark_text ?? "",
  group_gallery: s.group_gallery,
  downloads_enabled: s.downloads_enabled,
  reminder_days: String(s.reminder_days),
  order_photo_retention_days: String(s.order_photo_retention_days),
});
const KEY = ["studio", "gallery-settings"];

/**
 * The studio's parent gallery settings (Settings page): how long a published
 * gallery stays open, the watermark on previews (text, or a logo), the group
 * gallery, digital downloads, the reminder before a gallery closes, and how long
 * orders keep their photo files. Admins
 * change them; others see them.
 */
export function GallerySettingsCard({ canEdit }: { canEdit: boolean }) {
  const queries = useQueryClient();
  const settings = useQuery({ queryKey: KEY, queryFn: async () => unwrap(await studioApi.GET("/v1/services/studio/gallery-settings")) });
  // What the person changed, over what the server holds.
  const [edits, setEdits] = useState<Partial<Draft>>({});
  const draft = settings.data ? { ...draftOf(settings.data), ...edits } : null;
  const setDraft = (next: Draft) => setEdits(next);
  const save = useMutation({
    mutationFn: async (change: { logo?: File | null } = {}) => {
      const d = draft!;
      const logoUrl = change.logo ? (await uploadFile(change.logo)).url : change.logo === null ? null : undefined;
      const text = d.watermark_text.trim() || null;
      const body = {
        expiry_days: Number(d.expiry_days),
        group_gallery: d.group_gallery,
        downloads_enabled: d.downloads_enabled,
        reminder_days: Number(d.reminder_days),
        order_photo_retention_days: Number(d.order_photo_retention_days),
        // Sent only when changed: a watermark change makes the next publish render every preview again.
        ...(text !== settings.data!.watermark_text ? { watermark_text: text } : {}),
        ...(logoUrl !== undefined ? { watermark_logo_url: logoUrl } : {}),
      };
      return unwrap(await studioApi.PUT("/v1/services/studio/gallery-settings", { body }));
    },
    onSuccess: (saved) => {
      queries.setQueryData(KEY, saved);
      setEdits({});
    },
  });
  const errors = fieldErrors(save.error);
  const number = (key: "expiry_days" | "reminder_days" | "order_photo_retention_days", label: string, min: number, max: number) => (
    <Field id={`gallery-${key}`} label={label} type="number" inputMode="numeric" min={min} max={max} disabled={!canEdit} value={draft?.[key] ?? ""} onChange={(e) => setDraft({ ...draft!, [key]: e.target.value })} error={errors[key]} />
  );
  const toggle = (key: "group_gallery" | "downloads_enabled", label: string, help: string) => (
    <label className="flex items-start gap-2 text-sm">
      <input type="checkbox" className="mt-1" disabled={!canEdit} checked={draft?.[key] ?? false} onChange={(e) => setDraft({ ...draft!, [key]: e.target.checked })} />
      <span>
        <span className="font-medium text-slate-800">{label}</span>
        <span className="block text-slate-500">{help}</span>
      </span>
    </label>
  );
  return (
    <Card title="Parent galleries">
      <p className="mb-4 max-w-3xl text-sm text-slate-600">How the galleries you publish from a sorted job behave. A watermark change shows on previews once a job is published again.</p>
      {settings.isPending || !draft ? (
        settings.isError ? (
          <QueryError title="Could not load the gallery settings." error={settings.error} onRetry={() => void settings.refetch()} />
        ) : (
          <div role="status" className="h-10 animate-pulse rounded bg-slate-100" />
        )
      ) : (
        <form
          noValidate
          className="grid max-w-3xl gap-4 sm:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({});
          }}
        >
          {number("expiry_days", "Galleries stay open (days)", 1, 365)}
          {number("reminder_days", "Remind parents before closing (days, 0 = never)", 0, 30)}
          <Field
            id="gallery-watermark_text"
            label="Watermark text (empty: the studio's name)"
            maxLength={60}
            disabled={!canEdit || settings.data!.watermark_logo}
            value={draft.watermark_text}
            onChange={(e) => setDraft({ ...draft, watermark_text: e.target.value })}
            error={errors.watermark_text}
          />
          <div className="space-y-1 text-sm">
            <span className="block font-medium text-slate-700">Watermark logo</span>
            {settings.data!.watermark_logo ? (
              <p className="text-slate-600">
                A logo is drawn instead of the text.{" "}
                {canEdit ? (
                  <button type="button" className="text-brand-700 underline" disabled={save.isPending} onClick={() => save.mutate({ logo: null })}>
                    Use the text instead
                  </button>
                ) : null}
              </p>
            ) : (
              <input
                type="file"
                accept="image/png,image/jpeg"
                aria-label="Upload a watermark logo"
                disabled={!canEdit || save.isPending}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (file) save.mutate({ logo: file });
                }}
              />
            )}
            {errors.watermark_logo_url ? <p className="text-red-600">{errors.watermark_logo_url}</p> : null}
          </div>
          {toggle("group_gallery", "Group gallery", "Class or team photos that every code of the job opens.")}
          {toggle("downloads_enabled", "Sell digital downloads", "Full-resolution files, downloadable after payment.")}
          {number("order_photo_retention_days", "Remove orders' photos after (days)", 30, 3650)}
          <p className="self-end text-sm text-slate-500">Print files and downloads of older orders are deleted; the orders and their money stay.</p>
          {canEdit ? (
            <div className="flex items-center gap-3 sm:col-span-2">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save gallery settings"}
              </Button>
              {save.isSuccess ? (
                <span role="status" className="text-sm text-emerald-700">
                  Saved.
                </span>
              ) : null}
              {save.error && !Object.keys(errors).length ? (
                <span role="alert" className="text-sm text-red-700">
                  {errorMessage(save.error)}
                </span>
              ) : null}
            </div>
          ) : (
            <p className="text-sm text-slate-500 sm:col-span-2">Only admins change these.</p>
          )}
        </form>
      )}
    </Card>
  );
}
