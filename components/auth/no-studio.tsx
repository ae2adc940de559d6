"use client";

import { signOut } from "next-auth/react";
import { useFormStatus } from "react-dom";
import { Button } from "@/components/ui/button";

function CreateButton() {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" disabled={pending} className="w-full">
      {pending ? "Creating…" : "Create a studio of my own"}
    </Button>
  );
}

/**
 * A signed-in person who belongs to no studio (removed from the only one, or it
 * was deleted): what happened, and the two ways on, instead of a redirect loop.
 */
export function NoStudio({ email, createStudio }: { email: string; createStudio: () => Promise<void> }) {
  return (
    <div className="space-y-4" data-testid="no-studio">
      <h1 className="text-lg font-semibold">You are not in any studio</h1>
      <p className="text-sm text-slate-700">
        You are signed in as <strong>{email}</strong>, but no studio has you as a member now: the studio you were in removed you, or it was deleted. Ask its owner to invite you again, or start a studio of your own (it starts empty, with no tokens).
      </p>
      <form action={createStudio}>
        <CreateButton />
      </form>
      <Button type="button" variant="secondary" className="w-full" onClick={() => void signOut({ callbackUrl: "/signin" })}>
        Sign out
      </Button>
    </div>
  );
}
