"use client";

import { ICP_TYPES, PRESETS, type IcpType } from "@/lib/services/face-crop/presets";

const LABELS: Record<IcpType, string> = { school: "School", corporate: "Corporate", sports: "Sports", childcare: "Childcare" };

/** A small drawing of the preset: the frame, the head (chin to crown) at its share, the eye line. */
export function PresetDiagram({ icp }: { icp: IcpType }) {
  const p = PRESETS[icp];
  const H = 100;
  const W = (H * p.aspect.w) / p.aspect.h;
  const head = p.headShare * H;
  const eye = p.eyeLine * H;
  const crown = eye - head / 2;
  const cx = W * p.centreX;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-24 w-auto" role="img" aria-label={`${LABELS[icp]}: head ${Math.round(p.headShare * 100)}% of the height, eyes ${Math.round(p.eyeLine * 100)}% from the top`}>
      <rect x="0.5" y="0.5" width={W - 1} height={H - 1} fill="#f1f5f9" stroke="#94a3b8" />
      <path d={`M ${cx - head * 0.75} ${H} Q ${cx - head * 0.7} ${crown + head * 1.05} ${cx} ${crown + head * 1.02} Q ${cx + head * 0.7} ${crown + head * 1.05} ${cx + head * 0.75} ${H} Z`} fill="#cbd5e1" />
      <ellipse cx={cx} cy={crown + head / 2} rx={head * 0.36} ry={head / 2} fill="#e2e8f0" stroke="#64748b" />
      <line x1="0" x2={W} y1={eye} y2={eye} stroke="#0ea5e9" strokeDasharray="3 2" />
      <line x1={W - 4} x2={W - 4} y1={crown} y2={crown + head} stroke="#f97316" />
    </svg>
  );
}

export function PresetPicker({ value, onChange, disabled }: { value: IcpType; onChange: (v: IcpType) => void; disabled?: boolean }) {
  return (
    <fieldset disabled={disabled}>
      <legend className="mb-2 text-sm font-medium text-slate-800">Preset</legend>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {ICP_TYPES.map((icp) => {
          const p = PRESETS[icp];
          return (
            <label key={icp} className={`flex cursor-pointer flex-col items-center rounded-md border p-2 text-center text-xs ${value === icp ? "border-brand-600 bg-brand-50" : "border-slate-200"}`}>
              <input type="radio" name="icp_type" value={icp} checked={value === icp} onChange={() => onChange(icp)} className="sr-only" />
              <PresetDiagram icp={icp} />
              <span className="mt-1 font-medium text-slate-900">{LABELS[icp]}</span>
              <span className="text-slate-500">
                {p.aspect.w}:{p.aspect.h}, head {Math.round(p.headShare * 100)}%, eyes at {Math.round(p.eyeLine * 100)}%
              </span>
            </label>
          );
        })}
      </div>
      <p className="mt-2 text-xs text-slate-500">Dashed blue: the eye line. Orange: head height, chin to crown. Tilted heads are levelled. A head near the edge is never cut: the background is extended where the photo ends.</p>
    </fieldset>
  );
}
