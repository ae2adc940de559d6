// Several instances for real: two standalone servers (the production build, each
// with its own embedded job runner) share one PostgreSQL database, one Redis rate
// limit store and one S3-compatible bucket (s3rver, in this process). A mixed
// load goes through both; one instance is killed with SIGKILL in the middle.
// Checks: every accepted job ends completed, or failed with its refund; each
// wallet equals the sum of its ledger; the rate limit holds across instances;
// files and signed URLs made by one instance are served after it died.
//
//   npm run build && npm run multi-instance        (needs PostgreSQL and Redis)
//   MULTI_PG_URL=postgres://...  MULTI_REDIS_URL=redis://...   to point elsewhere
import sharp from "sharp";
import { startCluster } from "./support/cluster";
import {
  apiClient,
  bluePhoto,
  coffeePhoto,
  expectStatus,
  finishedBgRemoval,
  onePagePdf,
  premiumAccount,
  upload,
  type Json,
  type Server,
} from "./support/standalone-server";

const OPERATOR_TOKEN = "multi-operator-token-0123456789";
const RATE_LIMIT = 100;
const ACCOUNTS = 4;

const checks: string[] = [];
const started = Date.now();
function ok(msg: string) {
  checks.push(msg);
  console.log(`  ok  ${msg} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
function assert(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(msg);
}

async function main() {
  // A dead instance's runs are taken over once their lease lapses.
  const cluster = await startCluster({ instances: 2, operatorToken: OPERATOR_TOKEN, env: { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), JOB_LEASE_MS: "6000", JOB_POLL_MS: "300" } });
  const { servers, db } = cluster;
  try {
    const [a, b] = servers as [Server, Server];
    ok(`two instances up on one PostgreSQL database, Redis and S3 (${a.base}, ${b.base})`);
    const apiA = apiClient(a.base);
    const apiB = apiClient(b.base);
    const via = (i: number) => (i % 2 === 0 ? apiA : apiB);

    // Registrations alternate between the instances; each account is then used through both.
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await premiumAccount(via(i), OPERATOR_TOKEN, 1000));
    ok(`${ACCOUNTS} accounts registered and granted, alternating instances`);

    // API keys are cached per instance; a revocation through A is refused by B on the very next request.
    const owner = accounts[0]!.token;
    const created = await apiA("POST", "/v1/api-keys", { name: "multi" }, owner);
    expectStatus(created, 201, "API key");
    for (let i = 0; i < 3; i++) expectStatus(await apiB("GET", "/v1/account", undefined, created.json.key), 200, "account with the key through B");
    expectStatus(await apiA("DELETE", `/v1/api-keys/${created.json.id}`, undefined, owner), 204, "revoke through A");
    expectStatus(await apiB("GET", "/v1/account", undefined, created.json.key), 401, "the revoked key through B, next request");
    expectStatus(await apiA("GET", "/v1/account", undefined, created.json.key), 401, "the revoked key through A");
    ok("an API key used (and cached) through B, revoked through A, was refused by B on the very next request");

    // Billed and free work of every kind, each uploaded through one instance and started through the other.
    const jobs: { token: string; jobId: string }[] = [];
    const photo = coffeePhoto();
    for (const [i, acct] of accounts.entries()) {
      const imageUrl = await upload(via(i), acct.token, photo, "coffee.png", "image/png");
      for (let k = 0; k < 2; k++) {
        const res = await via(i + 1)("POST", "/v1/services/bg-remove", { image_url: imageUrl }, acct.token);
        expectStatus(res, 202, "bg-remove");
        jobs.push({ token: acct.token, jobId: res.json.job_id });
      }
      const qr = await via(i + 1)("POST", "/v1/services/studio/qr/generate", { job_id: `MULTI-${i}`, subjects: [{ student_id: "S1", name: "Ada Lovelace" }] }, acct.token);
      expectStatus(qr, 200, "bulk QR");
      const check = await via(i)("POST", "/v1/services/preflight/checks", { designId: `m-${i}`, fileUrl: await upload(via(i + 1), acct.token, await bluePhoto(), "p.jpg", "image/jpeg") }, acct.token);
      expectStatus(check, 201, "preflight");
    }
    const pdfCheck = await apiA("POST", "/v1/services/preflight/checks", { designId: "m-pdf", fileUrl: await upload(apiB, accounts[0]!.token, await onePagePdf(), "f.pdf", "application/pdf") }, accounts[0]!.token);
    expectStatus(pdfCheck, 201, "preflight PDF");
    ok(`${jobs.length} background removals accepted, ${ACCOUNTS} Bulk QR PDFs and ${ACCOUNTS + 1} preflight checks done across both instances`);

    // The rate limit is one budget whichever instance answers.
    const limited = await premiumAccount(apiA, OPERATOR_TOKEN, 10);
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 20; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, k) => via(i + k)("GET", "/v1/wallet", undefined, limited.token)));
      statuses.push(...batch.map((r) => r.status));
    }
    const passed = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    assert(passed === RATE_LIMIT && refused === 20, `rate limit across instances: ${passed} answered, ${refused} refused (limit ${RATE_LIMIT})`);
    ok(`rate limit held across instances: ${passed} of ${statuses.length} requests answered, ${refused} refused with 429`);

    // Kill instance A while it is running jobs (its runs are locked by "<host>:<pid>:...").
    const heldByA = async () =>
      (await db`select id from job_runs where status = 'running' and locked_by like ${`%:${a.child.pid}:%`}`).map((r) => r.id as string);
    let inFlight: string[] = [];
    for (let i = 0; i < 120 && inFlight.length === 0; i++) {
      inFlight = await heldByA();
      if (inFlight.length === 0) await new Promise((r) => setTimeout(r, 250));
    }
    assert(inFlight.length > 0, "instance A never held a running job to be killed in the middle of");
    await a.kill("SIGKILL");
    ok(`instance A killed with SIGKILL while running ${inFlight.length} job(s)`);

    // Every accepted job ends, through B alone.
    const outcomes: Json[] = [];
    for (const j of jobs) outcomes.push(await finishedBgRemoval(apiB, j.token, j.jobId, 300_000));
    const completed = outcomes.filter((o) => o.status === "completed").length;
    const failed = outcomes.filter((o) => o.status === "failed");
    const takenOver = await db`select count(*)::int as n from job_runs where id in ${db(inFlight)} and attempt >= 2 and status in ('completed', 'failed')`;
    assert(takenOver[0]!.n === inFlight.length, `only ${takenOver[0]!.n} of the ${inFlight.length} runs A died in were taken over`);
    ok(`every accepted job ended: ${completed} completed, ${failed.length} failed; the ${inFlight.length} run(s) A died in were taken over by B`);

    // Files made while A was alive are still served (signed URLs are S3's, or verified by B).
    for (const o of outcomes.filter((x) => x.status === "completed")) {
      const res = await fetch(o.output_url);
      assert(res.ok, `output ${o.output_url} answered ${res.status}`);
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      assert(meta.hasAlpha, "a cut-out without alpha");
    }
    ok("every cut-out downloads through its signed URL after instance A died");

    // The money: wallets equal their ledgers; failed jobs were refunded once; nothing else moved.
    const mismatched = await db`
      select w.account_id, w.balance, coalesce(sum(t.amount), 0)::int as ledger
      from wallets w left join wallet_transactions t on t.account_id = w.account_id
      group by w.account_id, w.balance having w.balance <> coalesce(sum(t.amount), 0)`;
    assert(mismatched.length === 0, `wallets differ from their ledgers: ${JSON.stringify(mismatched)}`);
    for (const f of failed) {
      const refunds = await db`select count(*)::int as n from wallet_transactions where refund_of = ${f.wallet_transaction_id}`;
      assert(refunds[0]!.n === 1, `failed job ${f.job_id} has ${refunds[0]!.n} refunds`);
    }
    // Runs scheduled for later (a mail's delivery check a minute after it was sent) are not due yet.
    const stuck = await db`select function_id, status, attempt, run_after from job_runs where status not in ('completed', 'failed') and run_after <= now()`;
    assert(stuck.length === 0, `${stuck.length} job runs did not end: ${JSON.stringify(stuck)}`);
    for (const acct of accounts) {
      const ledger = await apiB("GET", "/v1/wallet/transactions?limit=100", undefined, acct.token);
      expectStatus(ledger, 200, "ledger list");
      const wallet = await apiB("GET", "/v1/wallet", undefined, acct.token);
      const sum = (ledger.json.data as { amount: number }[]).reduce((s, t) => s + t.amount, 0);
      assert(sum === wallet.json.balance, `listed ledger ${sum} vs balance ${wallet.json.balance}`);
    }
    ok("every wallet equals its ledger (database and lists), each failed job refunded exactly once, no run left unfinished");

    console.log(`multi-instance: all ${checks.length} checks held in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.error(`multi-instance failed: ${err instanceof Error ? err.message : String(err)}`);
    for (const [i, s] of servers.entries()) console.error(`--- instance ${"ab"[i]} output ---\n${s.output().slice(-4000)}`);
    process.exitCode = 1;
  } finally {
    await cluster.stop();
  }
}

void main();
