import Link from "next/link";

export type LinkKind = "reset" | "verify";
export type LinkProblemState = "used" | "expired" | "invalid";

const BUTTON = "inline-flex w-full items-center justify-center rounded-md px-3 py-2 text-sm font-medium";
const PRIMARY = `${BUTTON} bg-brand-600 text-white hover:bg-brand-700`;
const SECONDARY = `${BUTTON} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;

const HEADINGS: Record<LinkProblemState, string> = {
  used: "This link was already used",
  expired: "This link has expired",
  invalid: "This link does not work",
};

/** What happened, in the reader's terms, and why a new link is the way on. */
const WHY: Record<LinkKind, Record<LinkProblemState, string>> = {
  reset: {
    used: "A password reset link works once, and asking for another one retires the older ones. If you already chose a new password, sign in with it.",
    expired: "Password reset links work for one hour after they are sent. Ask for a new one: it goes to the same address.",
    invalid: "The link may have been cut short by your mail program. Open it from the email again, or ask for a new one.",
  },
  verify: {
    used: "A confirmation link works once, and sending another one retires the older ones. Sign in to send a new link from your account.",
    expired: "Confirmation links work for 24 hours after they are sent. Sign in to send a new one from your account.",
    invalid: "The link may have been cut short by your mail program. Open it from the email again, or sign in to send a new one.",
  },
};

/**
 * The page a used, expired or broken emailed link shows instead of a form that
 * cannot work (issue 33): what happened, and a button to the way to a new link.
 */
export function LinkProblem({ kind, state }: { kind: LinkKind; state: LinkProblemState }) {
  return (
    <div className="space-y-4" data-testid="link-problem" data-state={state}>
      <h1 className="text-lg font-semibold">{HEADINGS[state]}</h1>
      <p className="text-sm text-slate-700">{WHY[kind][state]}</p>
      {kind === "reset" ? (
        <div className="space-y-2">
          <Link href="/forgot-password" className={PRIMARY}>
            Get a new link
          </Link>
          <Link href="/signin" className={SECONDARY}>
            Sign in
          </Link>
        </div>
      ) : (
        // The account page offers "Send the link again" (and a new address) once signed in; signing in returns there.
        <Link href="/account" className={PRIMARY}>
          Sign in and get a new link
        </Link>
      )}
    </div>
  );
}

/** A confirmation link whose address is confirmed already: nothing is wrong, and nothing is left to do. */
export function AlreadyConfirmed() {
  return (
    <div className="space-y-4" data-testid="link-problem" data-state="confirmed">
      <h1 className="text-lg font-semibold">Your address is already confirmed</h1>
      <p className="text-sm text-slate-700">This link was used to confirm it. There is nothing more to do.</p>
      <Link href="/dashboard" className={PRIMARY}>
        Go to the studio
      </Link>
    </div>
  );
}
