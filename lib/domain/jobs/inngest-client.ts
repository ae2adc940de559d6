import { Inngest } from "inngest";

/**
 * The Inngest client. It reads its mode from the environment (see README, "Async jobs"):
 * INNGEST_DEV=1 or a dev-server URL, INNGEST_BASE_URL for a self-hosted server,
 * INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY for Inngest Cloud. Without any of
 * them the app runs jobs on its embedded runner and this client sends nothing.
 */
export const inngest = new Inngest({ id: "print-studio" });
