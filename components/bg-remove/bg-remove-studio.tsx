"use client";

import { BuyTokensLink } from "@/components/wallet/buy-tokens-link";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { formatTokens } from "@/components/wallet/format";
import { useWalletBalance } from "@/components/wallet/use-wallet-balance";
import { ApiRequestError } from "@/lib/client/api-fetch";
import { newIdempotencyKey } from "@/lib/client/idempotency-key";
import { studioApi, unwrap } from "@/lib/client/typed-api";
import { uploadFile } from "@/lib/client/upload-file";
import { BgRemoveHistory, BG_REMOVE_HISTORY_KEY } from "./bg-remove-history";
import { BgRemoveJobCard } from "./bg-remove-job-card";
import { BgRemoveOptionsForm } from "./bg-remove-options-form";
import { ImageDropzone } from "./image-dropzone";
import { BG_REMOVE_COST } from "@/lib/services/bg-remove/values";
import { DEFAULT_OPTIONS, jobQueryKey, type BgRemoveOptions, type ImageItem } from "./types";
import { useQueryParam } from "@/lib/client/use-query-param";

let counter = 0;

/** Jobs polled at once: the runner works on two at a time, the rest wait; 3 polls every 2 s stay well under 120 requests a minute. */
const POLLED_AT_ONCE = 3;

function explain(err: unknown): string {
  if (err instanceof ApiRequestError && err.status === 402) return "Not enough tokens for this image.";
  return err instanceof Error ? err.message : "The image could not be sent.";
}

/** Drop images, choose options, see the cost, send: one background removal job per image. */
export function BgRemoveStudio() {
  const queryClient = useQueryClient();
  const balance = useWalletBalance();
  const [options, setOptions] = useState<BgRemoveOptions>(DEFAULT_OPTIONS);
  const [items, setItems] = useState<ImageItem[]>([]);
  const [rejections, setRejections] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const [finished, setFinished] = useState<ReadonlySet<string>>(new Set());
  const markFinished = useCallback((localId: string) => setFinished((f) => (f.has(localId) ? f : new Set(f).add(localId))), []);

  // Object URLs of the previews are freed when the page goes away.
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);
  useEffect(() => () => itemsRef.current.forEach((i) => URL.revokeObjectURL(i.previewUrl)), []);

  const update = (localId: string, patch: Partial<ImageItem>) => setItems((all) => all.map((i) => (i.localId === localId ? { ...i, ...patch } : i)));
  const ready = items.filter((i) => i.stage === "ready");
  const sent = items.filter((i) => i.stage !== "ready");
  const polled = new Set(sent.filter((i) => i.jobId && !finished.has(i.localId)).slice(0, POLLED_AT_ONCE).map((i) => i.localId));
  const cost = ready.length * BG_REMOVE_COST;
  const available = balance.data?.balance;
  const short = available !== undefined && cost > available;

  const addFiles = useCallback((files: File[]) => {
    setRejections([]);
    setItems((all) => [...all, ...files.map((file) => ({ localId: `img-${++counter}`, file, previewUrl: URL.createObjectURL(file), stage: "ready" as const }))]);
  }, []);

  // `?sample=astronaut` (the dashboard's first steps) puts a sample photo in the tray, ready to send.
  const [sample] = useQueryParam("sample");
  const sampleAdded = useRef(false);
  useEffect(() => {
    if (sample !== "astronaut" || sampleAdded.current) return;
    sampleAdded.current = true;
    void fetch("/samples/astronaut.jpg")
      .then((r) => (r.ok ? r.blob() : null))
      .then((blob) => blob && addFiles([new File([blob], "astronaut.jpg", { type: "image/jpeg" })]))
      .catch(() => {});
  }, [sample, addFiles]);

  function remove(item: ImageItem) {
    URL.revokeObjectURL(item.previewUrl);
    setItems((all) => all.filter((i) => i.localId !== item.localId));
  }

  async function send() {
    setSending(true);
    const chosen = { ...options };
    for (const item of ready) update(item.localId, { stage: "sending", options: chosen });
    // One at a time: the wallet is checked per job, so a short balance stops cleanly at the first 402.
    for (const item of ready) {
      try {
        const upload = await uploadFile(item.file);
        const job = unwrap(await studioApi.POST("/v1/services/bg-remove", { params: { header: { "Idempotency-Key": newIdempotencyKey() } }, body: { image_url: upload.url, ...chosen } }));
        queryClient.setQueryData(jobQueryKey(job.job_id), job);
        update(item.localId, { stage: "sent", jobId: job.job_id });
      } catch (err) {
        update(item.localId, { stage: "refused", error: explain(err) });
      }
    }
    await queryClient.invalidateQueries({ queryKey: ["wallet"] });
    await queryClient.invalidateQueries({ queryKey: BG_REMOVE_HISTORY_KEY });
    setSending(false);
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold text-slate-900">Background removal</h1>
        <p className="mt-1 text-sm text-slate-600">
          Cut the subject out of a photo: a transparent PNG, or the subject on white, at the photo&apos;s full size. {formatTokens(BG_REMOVE_COST)} tokens per image,
          refunded if a job fails.
        </p>
      </div>

      <div className="grid gap-6 lg:grid-cols-5">
        <Card title="Images" className="lg:col-span-3">
          <ImageDropzone onFiles={addFiles} onRejected={setRejections} disabled={sending} />
          {rejections.length ? (
            <ul role="alert" className="mt-3 space-y-1 text-sm text-red-600">
              {rejections.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          ) : null}
          {ready.length ? (
            <ul className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-4" aria-label="Images ready to send">
              {ready.map((item) => (
                <li key={item.localId} className="group relative">
                  {/* eslint-disable-next-line @next/next/no-img-element -- a local object URL */}
                  <img src={item.previewUrl} alt={item.file.name} className="aspect-square w-full rounded-md border border-slate-200 object-cover" />
                  <button
                    type="button"
                    onClick={() => remove(item)}
                    disabled={sending}
                    className="absolute right-1 top-1 rounded bg-white/90 px-1.5 text-xs text-slate-700 shadow hover:bg-white"
                    aria-label={`Remove ${item.file.name}`}
                  >
                    ✕
                  </button>
                  <p className="mt-1 truncate text-xs text-slate-500">{item.file.name}</p>
                </li>
              ))}
            </ul>
          ) : null}
        </Card>

        <Card title="Options" className="lg:col-span-2">
          <BgRemoveOptionsForm value={options} onChange={setOptions} disabled={sending} />
        </Card>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-4 rounded-lg border border-slate-200 bg-white px-5 py-4 shadow-sm">
        <div className="text-sm text-slate-700" data-testid="bg-remove-cost">
          <span className="font-medium">
            {ready.length} image{ready.length === 1 ? "" : "s"} × {formatTokens(BG_REMOVE_COST)} = {formatTokens(cost)} tokens
          </span>
          <span className="ml-2 text-slate-500">Balance: {available === undefined ? "…" : `${formatTokens(available)} tokens`}</span>
          {short ? (
            <p className="mt-1 text-red-600">
              Not enough tokens: {formatTokens(cost - available!)} more needed.{" "}
              <BuyTokensLink />
            </p>
          ) : null}
        </div>
        <Button onClick={() => void send()} disabled={sending || ready.length === 0 || short || available === undefined}>
          {sending ? "Sending…" : ready.length ? `Remove background${ready.length === 1 ? "" : "s"} (${formatTokens(cost)} tokens)` : "Remove backgrounds"}
        </Button>
      </div>

      {sent.length ? (
        <section aria-label="Jobs" className="space-y-3">
          <h2 className="text-base font-semibold text-slate-900">Sent from this page</h2>
          <div className="grid gap-4 md:grid-cols-2">
            {sent.map((item) => (
              <BgRemoveJobCard key={item.localId} item={item} poll={polled.has(item.localId)} onFinished={markFinished} />
            ))}
          </div>
        </section>
      ) : null}

      <BgRemoveHistory />
    </div>
  );
}
