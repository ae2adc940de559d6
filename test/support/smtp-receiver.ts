// A real SMTP server (smtp-server) with every message parsed (mailparser), so tests
// read the e-mails the app sent and follow their links. No vitest here: the
// Playwright harness runs it as a process too (smtp-test-server-process.ts).
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

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
