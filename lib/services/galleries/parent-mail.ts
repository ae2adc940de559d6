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

type ReminderMail = { to: string; studio: string; child: string; code: string; url: string; expiresAt: Date; favourites: number };

/** Before a gallery closes, to a parent who marked favourites and has not ordered. */
export function closingReminderMail(m: ReminderMail): MailMessage {
  return composeLetter({
    to: m.to,
    subject: `The gallery of ${m.child} closes on ${day(m.expiresAt)} · ${m.studio}`,
    greeting: "Hello,",
    blocks: [
      {
        kind: "p",
        text: `You marked ${m.favourites} favourite${m.favourites === 1 ? "" : "s"} in the gallery of ${m.child}, and it closes on ${day(m.expiresAt)}. To order prints or downloads, open it before then with the code ${m.code}.`,
      },
      { kind: "link", label: "Open the gallery", url: m.url },
      { kind: "p", text: "If you have ordered already, or do not want to, ignore this message: it is the only reminder." },
    ],
    signature: m.studio,
  });
}
