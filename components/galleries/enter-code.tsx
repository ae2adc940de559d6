"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { parentApi, saveParentSession, useParentSession } from "@/lib/client/parent-session";

/** The code from the card or flyer: typed, or carried by the card's second QR (/g?code=...). */
export function EnterCode() {
  const router = useRouter();
  const search = useSearchParams();
  const { session, ready } = useParentSession();
  const [code, setCode] = useState(search.get("code") ?? "");
  const [error, setError] = useState<string | null>(search.get("ended") ? "Your gallery session ended. Enter the code again." : null);
  const [busy, setBusy] = useState(false);
  const tried = useRef(false);

  const submit = async (value: string) => {
    setBusy(true);
    setError(null);
    const { data, error: failed, response } = await parentApi().POST("/v1/parent/access", { body: { code: value } });
    setBusy(false);
    if (!data) {
      setError(response.status === 429 ? (failed?.message ?? "Too many attempts. Wait a while and try again.") : "This code does not open a gallery. Check it against the card or flyer.");
      return;
    }
    saveParentSession(data);
    router.push(`/g/gallery/${data.galleries[0]!.id}`);
  };

  useEffect(() => {
    // A code from the card's QR is entered for the parent, once.
    const fromQr = search.get("code");
    if (fromQr && !tried.current) {
      tried.current = true;
      void submit(fromQr);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="mx-auto mt-6 max-w-sm sm:mt-16">
      <h1 className="text-2xl font-semibold text-slate-900">See your photos</h1>
      <p className="mt-2 text-sm text-slate-600">Enter the code printed on your child&apos;s photo card or class flyer.</p>
      <form
        className="mt-6 space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(code);
        }}
      >
        <label className="block text-sm font-medium text-slate-700" htmlFor="gallery-code">
          Access code
        </label>
        <input
          id="gallery-code"
          name="code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          inputMode="text"
          placeholder="ABCDE-12345"
          className="block w-full rounded-md border border-slate-300 px-3 py-3 text-center font-mono text-xl tracking-widest uppercase focus:border-brand-600 focus:outline-none"
        />
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <Button type="submit" className="w-full py-3 text-base" disabled={busy || code.trim().length < 10}>
          {busy ? "Opening…" : "Open gallery"}
        </Button>
      </form>
      {ready && session ? (
        <p className="mt-6 text-center text-sm">
          <a className="text-brand-700 underline" href={`/g/gallery/${session.galleries[0]!.id}`}>
            Back to {session.galleries[0]!.title}&apos;s photos
          </a>
        </p>
      ) : null}
    </div>
  );
}
