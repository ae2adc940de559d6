// A real SMTP server for tests (smtp-server), with every message parsed (mailparser),
// so tests read the emails the app sent and follow their links.
import { afterAll, beforeAll } from "vitest";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import { resetConfig } from "@/lib/foundation/config";
import { closeMailTransport } from "@/lib/domain/mail/send-mail";

export type ReceivedMail = { to: string; subject: string; text: string; html: string; links: string[] };

export type SmtpTestServer = {
  url: string;
  messages: ReceivedMail[];
  /** The first message (received already or within `ms`) to `to` whose subject matches. */
  waitFor(to: string, subject: RegExp, ms?: number): Promise<ReceivedMail>;
  /** Messages to `to` whose subject matches, received so far. */
  to(to: string, subject?: RegExp): ReceivedMail[];
  close(): Promise<void>;
};

function toReceived(m: ParsedMail): ReceivedMail {
  const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address ?? "")).join(",");
  const text = m.text ?? "";
  return { to, subject: m.subject ?? "", text, html: typeof m.html === "string" ? m.html : "", links: [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((x) => x[0]) };
}

/** Listens on `port` when given (a server brought back up where the app expects it), else on any free port. */
export async function startSmtpTestServer(port = 0): Promise<SmtpTestServer> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push(toReceived(parsed));
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.server.address() as { port: number }).port;
  const matching = (to: string, subject?: RegExp) => messages.filter((m) => m.to.toLowerCase() === to.toLowerCase() && (!subject || subject.test(m.subject)));
  return {
    url: `smtp://127.0.0.1:${bound}`,
    messages,
    to: matching,
    async waitFor(to, subject, ms = 5_000) {
      const end = Date.now() + ms;
      for (;;) {
        const hit = matching(to, subject)[0];
        if (hit) return hit;
        if (Date.now() > end) throw new Error(`no message to ${to} matching ${subject} within ${ms} ms (received: ${messages.map((m) => `${m.to}: ${m.subject}`).join("; ") || "none"})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** One SMTP server for the test file, the app's SMTP_URL pointed at it. */
export function smtpServerForFile(): () => SmtpTestServer {
  let smtp: SmtpTestServer | undefined;
  beforeAll(async () => {
    smtp = await startSmtpTestServer();
    process.env.SMTP_URL = smtp.url;
    resetConfig();
  });
  afterAll(async () => {
    closeMailTransport();
    await smtp?.close();
    delete process.env.SMTP_URL;
    resetConfig();
  });
  return () => smtp!;
}

/** The token in a link from an email (…?token=…). */
export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get("token");
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}
