import type { Box } from "./types";

const pct = (v: number, of: number) => `${(100 * v) / of}%`;

/** The whole photo with one face boxed (others outlined faintly), scaled to its container. */
export function FacePhoto({ src, width, height, box, others = [], alt }: { src: string; width: number; height: number; box: Box; others?: Box[]; alt: string }) {
  return (
    // At most 70% of the window's height, so the whole photo and the buttons fit on one screen.
    <div className="relative overflow-hidden rounded-md bg-slate-100" style={{ aspectRatio: `${width} / ${height}`, width: `min(100%, calc(70vh * ${width / height}))` }}>
      {/* eslint-disable-next-line @next/next/no-img-element -- signed storage URLs, already sized */}
      <img src={src} alt={alt} className="absolute inset-0 h-full w-full object-contain" />
      {others.map((b, i) => (
        <div key={i} className="absolute border border-white/70" style={{ left: pct(b.x, width), top: pct(b.y, height), width: pct(b.w, width), height: pct(b.h, height) }} />
      ))}
      <div
        data-testid="face-box"
        className="absolute border-[3px] border-amber-400 shadow-[0_0_0_2px_rgba(0,0,0,0.5)]"
        style={{ left: pct(box.x, width), top: pct(box.y, height), width: pct(box.w, width), height: pct(box.h, height) }}
      />
    </div>
  );
}

/** The face alone, enlarged from the photo (CSS crop, no new image), for comparing with a portrait. */
export function FaceCloseUp({ src, width, height, box, size = 192 }: { src: string; width: number; height: number; box: Box; size?: number }) {
  // A little room around the tight box, square.
  const side = Math.max(box.w, box.h) * 1.5;
  const cx = box.x + box.w / 2;
  const cy = box.y + box.h / 2;
  const scale = size / side;
  return (
    <div
      role="img"
      aria-label="The face, enlarged"
      className="rounded-md bg-slate-200"
      style={{
        width: size,
        height: size,
        backgroundImage: `url(${JSON.stringify(src)})`,
        backgroundSize: `${width * scale}px ${height * scale}px`,
        backgroundPosition: `${-(cx - side / 2) * scale}px ${-(cy - side / 2) * scale}px`,
        backgroundRepeat: "no-repeat",
      }}
    />
  );
}

/**
 * A square thumbnail of a photo centred on one face (CSS crop of the stored thumbnail,
 * fluid width): the face with about as much again around it, so in a group photo the
 * child is seen rather than the middle of the group. Falls back to the photo's centre
 * when the face is unknown.
 */
export function FaceThumb({ src, width, height, box, alt }: { src: string; width: number; height: number; box: Box | null; alt: string }) {
  const side = Math.min(width, height, box ? Math.max(box.w, box.h) * 2.2 : Infinity);
  const cx = box ? box.x + box.w / 2 : width / 2;
  const cy = box ? box.y + box.h / 2 : height / 2;
  const left = Math.min(Math.max(0, cx - side / 2), width - side);
  const top = Math.min(Math.max(0, cy - side / 2), height - side);
  // background-position p% lines the image's p% point up with the box's p% point.
  const pos = (start: number, full: number) => (full > side ? `${(100 * start) / (full - side)}%` : "50%");
  return (
    <div
      role="img"
      aria-label={alt}
      data-testid="face-thumb"
      className="aspect-square w-full rounded bg-slate-200"
      style={{
        backgroundImage: `url(${JSON.stringify(src)})`,
        backgroundSize: `${(100 * width) / side}% ${(100 * height) / side}%`,
        backgroundPosition: `${pos(left, width)} ${pos(top, height)}`,
        backgroundRepeat: "no-repeat",
      }}
    />
  );
}

/** A roster portrait, or a placeholder. */
export function Portrait({ src, name, size = 192 }: { src: string | null | undefined; name: string; size?: number }) {
  if (!src) return <div className="flex items-center justify-center rounded-md bg-slate-100 text-xs text-slate-500" style={{ width: size, height: size }}>no portrait</div>;
  // eslint-disable-next-line @next/next/no-img-element -- signed storage URL
  return <img src={src} alt={`Reference portrait of ${name}`} className="rounded-md object-cover object-top" style={{ width: size, height: size }} />;
}
