import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { config } from "@/lib/foundation/config";
import { linksIn, type MailMessage } from "./message";

/**
 * Without SMTP_URL (the embedded quick start) messages are written here, one JSON
 * file each, so sign-up and password reset still work on one machine: the operator
 * reads them at GET /v1/operator/outbox (and the /operator/outbox page), and the
 * log prints their links.
 */
export type OutboxEntry = MailMessage & { id: string; links: string[]; created_at: string };

export function outboxDir(): string {
  return path.join(config().dataDir, "outbox");
}

export async function writeToOutbox(message: MailMessage): Promise<OutboxEntry> {
  const now = new Date();
  // The time first so names sort oldest to newest; the random part keeps two in one millisecond apart.
  const id = `${now.toISOString().replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}`;
  const entry: OutboxEntry = { id, ...message, links: linksIn(message.text), created_at: now.toISOString() };
  await fs.mkdir(outboxDir(), { recursive: true });
  // Mode 0600: the links are credentials (a reset link signs its holder in).
  await fs.writeFile(path.join(outboxDir(), `${id}.json`), JSON.stringify(entry, null, 2), { mode: 0o600 });
  return entry;
}

/** Newest first, a page at a time. */
export async function listOutbox(page: { limit: number; offset: number }): Promise<{ items: OutboxEntry[]; total: number }> {
  let names: string[];
  try {
    names = (await fs.readdir(outboxDir())).filter((n) => n.endsWith(".json"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { items: [], total: 0 };
    throw err;
  }
  names.sort().reverse();
  const chosen = names.slice(page.offset, page.offset + page.limit);
  const items = await Promise.all(chosen.map(async (n) => JSON.parse(await fs.readFile(path.join(outboxDir(), n), "utf8")) as OutboxEntry));
  return { items, total: names.length };
}
