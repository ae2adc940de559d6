"use client";

import { useState } from "react";
import { formatDay, formatTokens } from "./format";
import type { UsageDay } from "./types";

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 48 };
const PLOT_W = WIDTH - PAD.left - PAD.right;
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

/** Rounds up to 1, 2 or 5 times a power of ten, so the axis label is a tidy number. */
function niceMax(n: number): number {
  if (n <= 0) return 1;
  const pow = 10 ** Math.floor(Math.log10(n));
  const step = [1, 2, 5, 10].find((m) => m * pow >= n) ?? 10;
  return step * pow;
}

function axisTicks(count: number): number[] {
  if (count <= 1) return [0];
  return Array.from(new Set([0, Math.floor((count - 1) / 2), count - 1]));
}

/**
 * Tokens spent per day as an SVG bar chart. Mouse users get a tooltip per
 * bar; screen-reader and keyboard users get a summary and a data table.
 */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const [hovered, setHovered] = useState<number | null>(null);
  const total = days.reduce((sum, d) => sum + d.spent, 0);

  if (days.length === 0 || total <= 0) {
    return (
      <div className="flex h-40 items-center justify-center rounded-md border border-dashed border-slate-200 text-sm text-slate-500">
        No tokens used in the last {days.length || 30} days
      </div>
    );
  }

  const peak = days.reduce((best, d) => (d.spent > best.spent ? d : best), days[0]!);
  const max = niceMax(peak.spent);
  const slot = PLOT_W / days.length;
  const barW = Math.max(2, slot * 0.7);
  const first = days[0]!.date;
  const last = days[days.length - 1]!.date;
  const summary = `Bar chart of tokens spent per day from ${formatDay(first, "long")} to ${formatDay(last, "long")}. ${formatTokens(total)} tokens spent in total; the busiest day was ${formatDay(peak.date, "long")} with ${formatTokens(peak.spent)} tokens.`;
  const active = hovered === null ? undefined : days[hovered];

  return (
    <div>
      <div className="relative">
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="h-auto w-full" role="img" aria-label={summary} onMouseLeave={() => setHovered(null)}>
          {[max, max / 2, 0].map((v) => {
            const y = PAD.top + PLOT_H - (v / max) * PLOT_H;
            return (
              <g key={v}>
                <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} className="stroke-slate-200" strokeDasharray={v === 0 ? undefined : "3 3"} />
                <text x={PAD.left - 6} y={y} textAnchor="end" dominantBaseline="middle" className="fill-slate-500 text-[11px]">
                  {formatTokens(v)}
                </text>
              </g>
            );
          })}
          {days.map((d, i) => {
            const h = d.spent > 0 ? Math.max(2, (d.spent / max) * PLOT_H) : 0;
            const x = PAD.left + i * slot;
            return (
              <g key={d.date} onMouseEnter={() => setHovered(i)}>
                <rect x={x} y={PAD.top} width={slot} height={PLOT_H} className="fill-transparent" />
                {h > 0 ? (
                  <rect
                    x={x + (slot - barW) / 2}
                    y={PAD.top + PLOT_H - h}
                    width={barW}
                    height={h}
                    rx={1.5}
                    className={hovered === i ? "fill-brand-700" : "fill-brand-500"}
                  />
                ) : null}
              </g>
            );
          })}
          {axisTicks(days.length).map((i) => (
            <text
              key={i}
              x={PAD.left + i * slot + slot / 2}
              y={HEIGHT - 8}
              textAnchor={i === 0 ? "start" : i === days.length - 1 ? "end" : "middle"}
              className="fill-slate-500 text-[11px]"
            >
              {formatDay(days[i]!.date)}
            </text>
          ))}
        </svg>
        {active && hovered !== null ? (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute top-0 z-10 -translate-x-1/2 whitespace-nowrap rounded-md bg-slate-900 px-2.5 py-1.5 text-xs text-white shadow"
            style={{ left: `${((PAD.left + hovered * slot + slot / 2) / WIDTH) * 100}%` }}
          >
            <div className="font-medium">{formatDay(active.date, "long")}</div>
            <div>{formatTokens(active.spent)} spent</div>
            {active.granted > 0 ? <div>{formatTokens(active.granted)} granted</div> : null}
          </div>
        ) : null}
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-slate-600 hover:text-slate-900">Show as table</summary>
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">Tokens spent and granted per day</caption>
          <thead className="text-slate-500">
            <tr>
              <th scope="col" className="py-1 font-medium">Date</th>
              <th scope="col" className="py-1 text-right font-medium">Spent</th>
              <th scope="col" className="py-1 text-right font-medium">Granted</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {days.map((d) => (
              <tr key={d.date}>
                <th scope="row" className="py-1 font-normal text-slate-700">{formatDay(d.date, "long")}</th>
                <td className="py-1 text-right tabular-nums">{formatTokens(d.spent)}</td>
                <td className="py-1 text-right tabular-nums">{formatTokens(d.granted)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
