// What a password-reset or confirmation link's page reads on load (issue 33): a
// used, expired or unknown link is told apart without using it, so the page shows
// what happened and a way to a new link instead of a form that can only fail.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import * as resetConfirm from "@/app/v1/auth/password-reset/confirm/route";
import * as verifyConfirm from "@/app/v1/auth/email-verification/confirm/route";
import { getDb } from "@/lib/foundation/db/client";
import { accountTokens } from "@/lib/foundation/db/schema";
import { createAccountToken } from "@/lib/domain/identity/one-time-tokens";
import { describeEmailLink } from "@/lib/services/sign-in/link-state";
import { call, testAccount } from "../http";

describe("describeEmailLink", () => {
  it("a reset link: valid until used (reading it does not use it), then used; expired; unknown, empty or of the other purpose is invalid", async () => {
    const db = await getDb();
    const { account, email } = await testAccount();
    const token = await createAccountToken(db, { accountId: account.id, purpose: "password_reset", email });
    expect(await describeEmailLink(db, token, "password_reset")).toEqual({ state: "valid", alreadyConfirmed: false });
    expect(await describeEmailLink(db, token, "password_reset")).toEqual({ state: "valid", alreadyConfirmed: false });
    expect((await describeEmailLink(db, token, "email_verification")).state).toBe("invalid");
    expect((await describeEmailLink(db, "not-a-token", "password_reset")).state).toBe("invalid");
    expect((await describeEmailLink(db, "", "password_reset")).state).toBe("invalid");

    const used = await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token, password: "a brand new pass phrase" } });
    expect(used.status, used.text).toBe(200);
    expect(await describeEmailLink(db, token, "password_reset")).toEqual({ state: "used", alreadyConfirmed: false });

    const late = await createAccountToken(db, { accountId: account.id, purpose: "password_reset", email });
    await db.update(accountTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(accountTokens.accountId, account.id));
    expect((await describeEmailLink(db, late, "password_reset")).state).toBe("expired");
    // The API refuses it with the same word.
    expect((await call(resetConfirm, "POST", "/v1/auth/password-reset/confirm", { body: { token: late, password: "a brand new pass phrase" } })).json.error).toBe("TOKEN_EXPIRED");
  });

  it("a confirmation link once used: 'already confirmed' when its address is the account's confirmed one, not when a newer address replaced it", async () => {
    const db = await getDb();
    const { account, email } = await testAccount();
    const token = await createAccountToken(db, { accountId: account.id, purpose: "email_verification", email });
    expect((await call(verifyConfirm, "POST", "/v1/auth/email-verification/confirm", { body: { token } })).status).toBe(200);
    expect(await describeEmailLink(db, token, "email_verification")).toEqual({ state: "used", alreadyConfirmed: true });

    // A link for an address the account never moved to, retired: used, and nothing confirmed by it.
    const other = await createAccountToken(db, { accountId: account.id, purpose: "email_verification", email: `elsewhere-${account.id}@example.com` });
    await db.update(accountTokens).set({ usedAt: new Date() }).where(eq(accountTokens.email, `elsewhere-${account.id}@example.com`));
    expect(await describeEmailLink(db, other, "email_verification")).toEqual({ state: "used", alreadyConfirmed: false });
  });
});
