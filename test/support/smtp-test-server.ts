// The SMTP test server for a vitest file: the app's SMTP_URL pointed at it for the
// file (the server itself: smtp-receiver.ts).
import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "@/lib/foundation/config";
import { closeMailTransport } from "@/lib/domain/mail/send-mail";
import { startSmtpTestServer, type SmtpTestServer } from "./smtp-receiver";

export { startSmtpTestServer, type ReceivedMail, type SmtpTestServer } from "./smtp-receiver";

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
