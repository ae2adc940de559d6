import type { MailMessage } from "./message";

/** A paragraph, or a link shown as its label with the address printed under it (for clients that strip links). */
export type Block = { kind: "p"; text: string } | { kind: "link"; label: string; url: string };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * One message as a short letter: greeting, blocks, signature, with a text part
 * and an HTML part saying the same thing. The HTML is built from escaped text,
 * so a studio or child named "<b>" is shown, never rendered.
 */
export function composeLetter(letter: { to: string; subject: string; greeting: string; blocks: Block[]; signature: string }): MailMessage {
  const { to, subject, greeting, blocks, signature } = letter;
  const text = [greeting, ...blocks.map((b) => (b.kind === "p" ? b.text : `${b.label}:\n${b.url}`)), `-- \n${signature}`].join("\n\n") + "\n";
  const html = [
    `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#111">`,
    `<p>${escapeHtml(greeting)}</p>`,
    ...blocks.map((b) =>
      b.kind === "p" ? `<p>${escapeHtml(b.text)}</p>` : `<p><a href="${escapeHtml(b.url)}">${escapeHtml(b.label)}</a><br><span style="color:#555;font-size:12px">${escapeHtml(b.url)}</span></p>`,
    ),
    `<p style="color:#555">${escapeHtml(signature)}</p>`,
    `</body></html>`,
  ].join("\n");
  return { to, subject, text, html };
}
