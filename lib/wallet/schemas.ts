import { z } from "zod";
import { decimalInt } from "@/lib/http/decimal-int";

export const usageQuery = z.strictObject({ days: decimalInt(1, 366).default(30) });
