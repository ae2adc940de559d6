// Operator CLI: the same actions as /v1/operator/*, straight against the
// database, for when no server holds it (PGlite allows one process).
//   npm run cli -- grant --email a@b.c --tokens 500 --reason "Welcome pack"
//   npm run cli -- plan --email a@b.c --plan premium
//   npm run cli -- release-hold --email a@b.c --reason "Paid by bank transfer"
//   npm run cli -- create-account --email a@b.c --name "Ada" --password "..."
//   npm run cli -- mail --status pending      (the email outbox: pending, sending, sent or failed)
//   npm run cli -- mail-retry --id mail_...   (one more attempt for a failed email)
import { parseArgs } from "node:util";
import { z } from "zod";
import { closeDb, getDb } from "@/lib/foundation/db/client";
import { grantBody, planBody, registerBody, releaseHoldBody } from "@/lib/services/sign-in/schemas";
import { operatorGrant, operatorReleaseHold, operatorSetPlan } from "@/lib/services/sign-in/operator-actions";
import { createAccount } from "@/lib/domain/identity/create-account";
import { toPublicAccount } from "@/lib/domain/identity/public-account";
import { ApiError } from "@/lib/foundation/http/api-error";
import { registerAppJobs } from "@/inngest/register";
import { listMail, operatorRetryMail } from "@/lib/domain/mail/list-mail";
import { listMailQuery, retryMailBody } from "@/lib/domain/mail/schemas";
import { mailCounts } from "@/lib/domain/mail/deliver-mail";

const USAGE = `usage:
  npm run cli -- grant --email <email> --tokens <n> --reason <text>
  npm run cli -- plan --email <email> --plan free|premium
  npm run cli -- release-hold --email <email> --reason <text>
  npm run cli -- create-account --email <email> --name <name> --password <password>
  npm run cli -- mail [--status pending|sending|sent|failed] [--limit <n>]
  npm run cli -- mail-retry --id <mail_...>`;

// A running server holds the embedded database: say so at once rather than wait for it.
process.env.DATA_DIR_LOCK_WAIT_MS ??= "0";

// A grant can emit a webhook event, whose delivery is a job.
registerAppJobs();

async function main(): Promise<unknown> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: { email: { type: "string" }, tokens: { type: "string" }, reason: { type: "string" }, plan: { type: "string" }, name: { type: "string" }, password: { type: "string" }, status: { type: "string" }, limit: { type: "string" }, id: { type: "string" } },
  });
  const db = await getDb();
  switch (command) {
    case "grant":
      return operatorGrant(db, grantBody.parse({ email: values.email, tokens: Number(values.tokens), reason: values.reason }));
    case "plan":
      return operatorSetPlan(db, planBody.parse({ email: values.email, plan: values.plan }));
    case "release-hold":
      return operatorReleaseHold(db, releaseHoldBody.parse({ email: values.email, reason: values.reason }));
    case "create-account":
      // The operator vouches for the address (and may grant tokens anyway): confirmed at once, with the sign-up bonus.
      return toPublicAccount(await createAccount(db, { ...registerBody.parse({ email: values.email, name: values.name, password: values.password }), verified: true }));
    case "mail": {
      // Oldest due first would hide the newest failures: newest first, with the counts by status.
      const q = listMailQuery.parse({ status: values.status, limit: values.limit ?? "50" });
      const { items, total } = await listMail(db, { status: q.status }, { limit: q.limit, offset: 0 });
      return { counts: await mailCounts(db), total, messages: items };
    }
    case "mail-retry":
      return operatorRetryMail(db, retryMailBody.parse({ id: values.id }).id);
    default:
      throw new Error(USAGE);
  }
}

main()
  .then((result) => console.log(JSON.stringify(result, null, 2)))
  .catch((err: unknown) => {
    if (err instanceof z.ZodError) console.error(err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("\n"));
    else if (err instanceof ApiError) console.error(`${err.code}: ${err.message}`);
    else console.error((err as Error).message);
    process.exitCode = 1;
  })
  .finally(() => closeDb());
