import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/foundation/config";
import { logger } from "@/lib/foundation/log/logger";
import type { MailMessage } from "./message";
import { writeToOutbox } from "./outbox";

// One pooled SMTP transport per process and URL (tests start a server per file and change SMTP_URL).
const holder = globalThis as unknown as { __printStudioMail?: { url: string; transport: Transporter } };

// nodemailer waits up to 2 min to connect and 10 min on a silent socket; the first
// attempt runs on a person's request, and a message not taken is retried anyway.
const TIMEOUTS = { connectionTimeout: "10000", greetingTimeout: "10000", socketTimeout: "30000" };

/** SMTP_URL with our timeouts where it sets none (nodemailer reads options from the query). */
function withTimeouts(url: string): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(TIMEOUTS)) if (!u.searchParams.has(k)) u.searchParams.set(k, v);
  return u.toString();
}

function transport(url: string): Transporter {
  if (holder.__printStudioMail?.url !== url) {
    holder.__printStudioMail?.transport.close();
    holder.__printStudioMail = { url, transport: nodemailer.createTransport(withTimeouts(url)) };
  }
  return holder.__printStudioMail.transport;
}

/**
 * Hands one message over: to SMTP_URL when set, else into the outbox folder in
 * DATA_DIR with its links printed in the log (lib/domain/mail/outbox.ts). Throws when
 * the SMTP server cannot be reached or refuses; the queue (deliver-mail.ts)
 * decides what comes next. `messageId` is the same on every attempt, so a
 * receiver can tell a repeat after a lost answer.
 */
export async function transmit(message: MailMessage, messageId: string): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = config();
  if (SMTP_URL) {
    await transport(SMTP_URL).sendMail({ from: MAIL_FROM, to: message.to, subject: message.subject, text: message.text, html: message.html, messageId: `<${messageId}@print-studio>` });
    return;
  }
  const entry = await writeToOutbox(message);
  // Logged on purpose (no SMTP configured): without these links nobody on this machine could verify or reset.
  logger().info({ outbox: entry.id, to: entry.to, subject: entry.subject, links: entry.links.join(" ") }, "mail written to the outbox (SMTP_URL unset)");
}

/** Tests: close the pooled connection. */
export function closeMailTransport(): void {
  holder.__printStudioMail?.transport.close();
  holder.__printStudioMail = undefined;
}
