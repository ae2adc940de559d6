"use client";

import type { ButtonHTMLAttributes } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";

const styles = {
  primary: "bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-300",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-100 disabled:text-slate-400",
  danger: "border border-red-300 bg-white text-red-700 hover:bg-red-50 disabled:text-slate-400",
};

export function Button({ variant = "primary", className = "", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof styles }) {
  // A submit pressed before the page's script runs would send the form natively: a GET that puts
  // the fields (a password, a card holder's e-mail) in the URL and reloads the page empty. So a
  // submit button waits for hydration; on a slow phone that is the moment the form works anyway.
  const hydrated = useHydrated();
  const submits = (props.type ?? "submit") === "submit";
  return (
    <button
      className={`inline-flex items-center justify-center rounded-md px-3 py-2 text-sm font-medium transition disabled:cursor-not-allowed ${styles[variant]} ${className}`}
      {...props}
      disabled={props.disabled || (submits && !hydrated)}
    />
  );
}
