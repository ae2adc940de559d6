// The test SMTP server as a process, for Playwright (playwright.config.ts starts it
// beside the app, whose SMTP_URL points at it): every message the app sends is
// received over real SMTP, parsed, and listed as JSON at GET /messages on a second
// port, so a spec reads the e-mails a person would get.
// `tsx test/support/smtp-test-server-process.ts <smtp port> <http port>`
import http from "node:http";
import { startSmtpTestServer } from "./smtp-receiver";

const [smtpPort, httpPort] = process.argv.slice(2).map(Number);
if (!smtpPort || !httpPort) throw new Error("usage: smtp-test-server-process.ts <smtp port> <http port>");
void startSmtpTestServer(smtpPort).then((smtp) => {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://smtp");
    if (url.pathname === "/health") return void res.writeHead(200).end("ok");
    if (url.pathname !== "/messages") return void res.writeHead(404).end();
    const to = url.searchParams.get("to");
    // Newest first, as the outbox lists them.
    const list = (to ? smtp.to(to) : smtp.messages).slice().reverse();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: list }));
  });
  server.listen(httpPort, "127.0.0.1", () => console.log(`SMTP test server on ${smtp.url}, messages at http://127.0.0.1:${httpPort}/messages`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void smtp.close().then(() => process.exit(0)));
});
