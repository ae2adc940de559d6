const tokens = new Intl.NumberFormat("en-US");
const signedTokens = new Intl.NumberFormat("en-US", { signDisplay: "exceptZero" });

/** 1234 -> "1,234". */
export function formatTokens(n: number): string {
  return tokens.format(n);
}

/** 500 -> "+500", -150 -> "-150", 0 -> "0". */
export function formatSignedTokens(n: number): string {
  return signedTokens.format(n);
}

/** An ISO timestamp in the viewer's locale and time zone. */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A UTC calendar day ("YYYY-MM-DD") as e.g. "Mar 5". */
export function formatDay(day: string, style: "short" | "long" = "short"): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    timeZone: "UTC",
    month: "short",
    day: "numeric",
    ...(style === "long" ? { year: "numeric", weekday: "short" } : {}),
  });
}
