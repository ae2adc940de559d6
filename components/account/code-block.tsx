import { CopyButton } from "@/components/api-keys/copy-button";

/** A shell snippet with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <figure className="overflow-hidden rounded-md border border-slate-800 bg-slate-900">
      <figcaption className="flex items-center justify-between gap-3 border-b border-slate-800 px-3 py-1.5">
        <span className="text-xs font-medium text-slate-400">{label}</span>
        <CopyButton text={code} label="Copy" className="[&_button]:px-2 [&_button]:py-1 [&_button]:text-xs" />
      </figcaption>
      <pre className="overflow-x-auto p-3 text-xs leading-relaxed text-slate-100" tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
