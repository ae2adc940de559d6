import { SEVERITY_STYLE } from "./status-badge";
import type { Issue } from "./types";
import type { Rect } from "./raster-guides";

export type Guide = { rect: Rect; kind: "bleed" | "trim" | "safe" };

const GUIDE_STYLE = {
  bleed: { stroke: "#dc2626", dash: "8 4", label: "Bleed" },
  trim: { stroke: "#16a34a", dash: "none", label: "Trim" },
  safe: { stroke: "#2563eb", dash: "3 3", label: "Safe area" },
} as const;

/**
 * An SVG drawn over a rendered page or image, in that page's own pixel space
 * (`width` x `height`): trim/bleed/safe guides and each located issue's box.
 * Clicking a box selects its issue; the selected one is filled.
 */
export function IssueOverlay({
  width,
  height,
  guides,
  boxes,
  selected,
  onSelect,
}: {
  width: number;
  height: number;
  guides: Guide[];
  boxes: { index: number; issue: Issue; rect: Rect }[];
  selected: number | null;
  onSelect: (index: number) => void;
}) {
  // Lines stay about 2 screen pixels wide whatever the image's resolution.
  const unit = Math.max(width, height) / 600;
  return (
    <svg className="absolute inset-0 h-full w-full" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" data-testid="issue-overlay">
      {/* A white halo under every line keeps it visible on any artwork. */}
      {guides.map((g) => (
        <rect key={`halo-${g.kind}`} x={g.rect.x} y={g.rect.y} width={g.rect.width} height={g.rect.height} fill="none" stroke="#ffffff" strokeOpacity={0.8} strokeWidth={3.5 * unit} pointerEvents="none" />
      ))}
      {guides.map((g) => (
        <rect
          key={g.kind}
          data-guide={g.kind}
          x={g.rect.x}
          y={g.rect.y}
          width={g.rect.width}
          height={g.rect.height}
          fill="none"
          stroke={GUIDE_STYLE[g.kind].stroke}
          strokeWidth={1.5 * unit}
          strokeDasharray={GUIDE_STYLE[g.kind].dash === "none" ? undefined : GUIDE_STYLE[g.kind].dash.split(" ").map((n) => Number(n) * unit).join(" ")}
          pointerEvents="none"
        >
          <title>{GUIDE_STYLE[g.kind].label}</title>
        </rect>
      ))}
      {boxes.map(({ index, issue, rect }, part) => {
        const isSelected = index === selected;
        const colour = SEVERITY_STYLE[issue.severity].stroke;
        const w = Math.max(rect.width, 2 * unit);
        const h = Math.max(rect.height, 2 * unit);
        return (
          <g key={`${index}-${part}`}>
            <rect x={rect.x} y={rect.y} width={w} height={h} fill="none" stroke="#ffffff" strokeWidth={(isSelected ? 8 : 5) * unit} pointerEvents="none" />
            <rect
              data-testid={`issue-box-${index}`}
              data-selected={isSelected ? "true" : "false"}
              x={rect.x}
              y={rect.y}
              width={w}
              height={h}
              fill={isSelected ? "#ffffff" : colour}
              fillOpacity={isSelected ? 0.35 : 0.06}
              stroke={colour}
              strokeWidth={(isSelected ? 4 : 2) * unit}
              strokeDasharray={isSelected ? undefined : `${6 * unit} ${3 * unit}`}
              className="cursor-pointer"
              onClick={() => onSelect(index)}
            >
              <title>{issue.message}</title>
            </rect>
          </g>
        );
      })}
    </svg>
  );
}

export function GuideLegend({ kinds }: { kinds: Guide["kind"][] }) {
  if (kinds.length === 0) return null;
  return (
    <ul className="flex flex-wrap gap-4 text-xs text-slate-600">
      {kinds.map((k) => (
        <li key={k} className="flex items-center gap-1.5">
          <span className="inline-block h-0 w-5 border-t-2" style={{ borderColor: GUIDE_STYLE[k].stroke, borderStyle: GUIDE_STYLE[k].dash === "none" ? "solid" : "dashed" }} />
          {GUIDE_STYLE[k].label}
        </li>
      ))}
    </ul>
  );
}
