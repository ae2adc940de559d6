import { z } from "zod";
import { queryInt } from "@/lib/http/query-int";

export const usageQuery = z.strictObject({ days: queryInt(1, 366).default(30) });
