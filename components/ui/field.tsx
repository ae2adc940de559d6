import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from "react";

const CONTROL =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500";

/** Label above, error below (linked to the control by aria-describedby). */
function FieldShell({ id, label, error, children }: { id: string; label: string; error?: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const errorProps = (id: string, error?: string) => ({ "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : undefined });

export function Field({ label, error, id, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; id: string }) {
  return (
    <FieldShell id={id} label={label} error={error}>
      <input id={id} className={CONTROL} {...errorProps(id, error)} {...props} />
    </FieldShell>
  );
}

export type SelectOption = string | { value: string; label: string };

/** A labelled <select>; a plain string option is its own label. */
export function SelectField({
  label,
  id,
  options,
  error,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; id: string; options: readonly SelectOption[]; error?: string }) {
  return (
    <FieldShell id={id} label={label} error={error}>
      <select id={id} className={CONTROL} {...errorProps(id, error)} {...props}>
        {options.map((o) => {
          const { value, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </FieldShell>
  );
}
