import Papa from "papaparse";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/foundation/db/types";
import { productionSettings } from "@/lib/foundation/db/schema";
import type { BatchLine } from "./batch-contents";
import { MANIFEST_FIELDS } from "./values";

/** The studio's column names (its lab's import format); a field it did not rename keeps its own name. */
export async function manifestColumns(db: Db, accountId: string): Promise<Record<string, string>> {
  const [row] = await db.select().from(productionSettings).where(eq(productionSettings.accountId, accountId));
  return Object.fromEntries(MANIFEST_FIELDS.map((f) => [f, row?.manifestColumns[f] ?? f]));
}

export async function saveManifestColumns(db: Db, accountId: string, columns: Record<string, string | undefined>) {
  const clean = Object.fromEntries(Object.entries(columns).filter((e): e is [string, string] => e[1] !== undefined));
  await db
    .insert(productionSettings)
    .values({ accountId, manifestColumns: clean })
    .onConflictDoUpdate({ target: productionSettings.accountId, set: { manifestColumns: clean, updatedAt: new Date() } });
  return { manifest_columns: await manifestColumns(db, accountId) };
}

/** The manifest as CSV and JSON, with the studio's column names; the same rows in the same order. */
export function manifestFiles(lines: BatchLine[], columns: Record<string, string>): { csv: string; json: string } {
  const records = lines.map((l) => Object.fromEntries(MANIFEST_FIELDS.map((f) => [columns[f] ?? f, l[f]])));
  const fields = MANIFEST_FIELDS.map((f) => columns[f] ?? f);
  return { csv: Papa.unparse({ fields, data: records.map((r) => fields.map((c) => r[c])) }, { escapeFormulae: true }), json: JSON.stringify(records, null, 2) };
}
