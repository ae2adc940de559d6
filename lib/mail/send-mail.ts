import nodemailer, { type Transporter } from "nodemailer";
import { config } from "@/lib/config";
import { logger } from "@/lib/log/logger";
import { ApiError } from "@/lib/http/api-error";
import type { MailMessage } from "./message";
import { writeToOutbox } from "./outbox";

// One pooled SMTP transport per process and URL (tests start a server per file and change SMTP_URL).
const holder = globalThis as unknown as { __printStudioMail?: { url: string; transport: Transporter } };

function transport(url: string): Transporter {
  if (holder.__printStudioMail?.url !== url) {
    holder.__printStudioMail?.transport.close();
    holder.__printStudioMail = { url, transport: nodemailer.createTransport(url) };
  }
  return holder.__printStudioMail.transport;
}

/**
 * Sends one message: through SMTP_URL when set, else into the outbox in DATA_DIR
 * with its links printed in the log (lib/mail/outbox.ts). When the SMTP server
 * cannot be reached or refuses, throws a 503 MAIL_NOT_SENT: callers whose change
 * stands without the message (a notice) catch it; a resend lets it answer.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const { SMTP_URL, MAIL_FROM } = config();
  if (SMTP_URL) {
    try {
      await transport(SMTP_URL).sendMail({ from: MAIL_FROM, to: message.to, subject: message.subject, text: message.text, html: message.html });
    } catch (err) {
      logger().error({ err: (err as Error).message, subject: message.subject }, "mail could not be sent");
      throw new ApiError(503, "MAIL_NOT_SENT", "The email could not be sent just now. Try again in a few minutes.");
    }
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
