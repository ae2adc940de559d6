/** One email: a plain-text and an HTML part of the same words. */
export type MailMessage = { to: string; subject: string; text: string; html: string };

/** The links in a message's text part (the outbox lists them, the log prints them). */
export function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
}
