"use client";

import { EDGE_SOFTNESS, OUTPUT_BACKGROUND_LABELS, OUTPUT_BACKGROUNDS, SUBJECT_TYPE_LABELS, SUBJECT_TYPES } from "@/lib/services/bg-remove/values";
import type { BgRemoveOptions } from "./types";

/** The job options of POST /v1/services/bg-remove, applied to every image sent together. */
export function BgRemoveOptionsForm({ value, onChange, disabled }: { value: BgRemoveOptions; onChange: (v: BgRemoveOptions) => void; disabled?: boolean }) {
  const set = <K extends keyof BgRemoveOptions>(key: K, v: BgRemoveOptions[K]) => onChange({ ...value, [key]: v });
  return (
    <fieldset disabled={disabled} className="grid gap-4 sm:grid-cols-2">
      <div className="space-y-1">
        <label htmlFor="bg-subject" className="block text-sm font-medium text-slate-700">
          Subject
        </label>
        <select
          id="bg-subject"
          value={value.subject_type}
          onChange={(e) => set("subject_type", e.target.value as BgRemoveOptions["subject_type"])}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500"
        >
          {SUBJECT_TYPES.map((s) => (
            <option key={s} value={s}>
              {SUBJECT_TYPE_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1">
        <label htmlFor="bg-softness" className="block text-sm font-medium text-slate-700">
          Edge softness: <span className="tabular-nums">{value.edge_softness}</span>
          <span className="ml-1 font-normal text-slate-500">
            ({EDGE_SOFTNESS.min} hard cut, {EDGE_SOFTNESS.max} feathered)
          </span>
        </label>
        <input
          id="bg-softness"
          type="range"
          min={EDGE_SOFTNESS.min}
          max={EDGE_SOFTNESS.max}
          step={1}
          value={value.edge_softness}
          onChange={(e) => set("edge_softness", Number(e.target.value))}
          className="w-full accent-brand-600"
        />
      </div>
      <div className="space-y-1">
        <span className="block text-sm font-medium text-slate-700">Background</span>
        <div className="flex gap-4 text-sm text-slate-700">
          {OUTPUT_BACKGROUNDS.map((bg) => (
            <label key={bg} className="flex items-center gap-2">
              <input type="radio" name="bg-output" value={bg} checked={value.output_background === bg} onChange={() => set("output_background", bg)} />
              {OUTPUT_BACKGROUND_LABELS[bg]}
            </label>
          ))}
        </div>
      </div>
      <label className="flex items-start gap-2 text-sm text-slate-700 sm:mt-6">
        <input type="checkbox" checked={value.high_detail_mode} onChange={(e) => set("high_detail_mode", e.target.checked)} className="mt-0.5" />
        <span>
          High detail <span className="text-slate-500">(fine hair or fur; slower)</span>
        </span>
      </label>
    </fieldset>
  );
}
