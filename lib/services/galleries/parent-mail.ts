import { composeLetter } from "@/lib/domain/mail/compose-letter";
import type { MailMessage } from "@/lib/domain/mail/message";

// What a parent receives about a child's gallery, from the studio by its name.

const day = (d: Date) => d.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

type CodeMail = { to: string; studio: string; job: string; child: string; code: string; url: string; expiresAt: Date | null };

/** The child's access code and the link that enters it (/g?code=...). */
export function codeMail(m: CodeMail): MailMessage {
  return composeLetter({
    to: m.to,
    subject: `The photos of ${m.child} are ready · ${m.studio}`,
    greeting: "Hello,",
    blocks: [
      { kind: "p", text: `${m.studio} has put the photos of ${m.child}${m.job ? ` from ${m.job}` : ""} in a private gallery. Only this code opens it: ${m.code}` },
      { kind: "link", label: "Open the gallery", url: m.url },
      ...(m.expiresAt ? [{ kind: "p" as const, text: `The gallery is open until ${day(m.expiresAt)}.` }] : []),
      { kind: "p", text: "If you do not know this child, please ignore this message." },
    ],
    signature: m.studio,
  });
}
