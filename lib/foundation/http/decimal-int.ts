import { z } from "zod";

/** PostgreSQL's integer: the largest id or count a request may name. */
export const INT4_MAX = 2_147_483_647;

/**
 * A whole number from a query string or a path segment, written in decimal digits
 * only: "0x14", "1e1", " 20" or "" are a 400 naming the parameter instead of being
 * read as 20, 10 or 0 (what Number() would make of them), then range-checked.
 * `messages` words the three refusals for a particular kind of value (path ids).
 */
export function decimalInt(min: number, max = INT4_MAX, messages: { digits?: string; min?: string; max?: string } = {}) {
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, messages.digits ?? "Must be a whole number written in decimal digits.")
    .transform(Number)
    .pipe(z.number().int().min(min, messages.min).max(max, messages.max));
}
