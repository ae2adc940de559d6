// The Stripe stand-in as a process, for Playwright (playwright.config.ts starts it
// beside the app): `tsx test/support/stripe-stand-in-server.ts <port> <webhook url> <secret>`.
import { startStripeStandIn } from "./stripe-stand-in";

const [port, webhookUrl, webhookSecret] = process.argv.slice(2);
if (!port || !webhookUrl || !webhookSecret) throw new Error("usage: stripe-stand-in-server.ts <port> <webhook url> <webhook secret>");
void startStripeStandIn({ port: Number(port), webhookUrl, webhookSecret }).then((stand) => {
  console.log(`Stripe stand-in on ${stand.url}, delivering events to ${webhookUrl}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stand.close().then(() => process.exit(0)));
});
