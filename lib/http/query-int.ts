import { z } from "zod";

/**
 * A whole number from the query string, written in decimal digits only: "0x14",
 * "1e1", " 20" or "" are a 400 naming the parameter instead of being read as
 * 20, 10 or 0 (what Number() would make of them), then range-checked.
 */
export function queryInt(min: number, max = 2_147_483_647) {
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, "Must be a whole number written in decimal digits.")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
}
