import { useEffect } from "react";

// Object URLs for Blobs shown on a page (a preview fetched with a token an <img> cannot
// send). The browser keeps a URL's Blob alive until the URL is revoked, so each one is
// counted by the components showing it and revoked when the last one goes. The Blob may
// live on in a query cache: a component mounted later gets a fresh URL for it.

type Entry = { url: string; users: number; timer?: ReturnType<typeof setTimeout> };
const entries = new WeakMap<Blob, Entry>();

/** The Blob's URL, made on first ask (render time; the same Blob gives the same URL while it is held). */
export function objectUrlOf(blob: Blob): string {
  let entry = entries.get(blob);
  if (!entry) {
    entry = { url: URL.createObjectURL(blob), users: 0 };
    entries.set(blob, entry);
  }
  return entry.url;
}

/**
 * Holds the Blob's URL until the returned release is called. The last release revokes it
 * after the current task, so a hold taken again straight away (React's StrictMode runs an
 * effect, its cleanup and the effect again) keeps the URL the render used.
 */
export function holdObjectUrl(blob: Blob): () => void {
  objectUrlOf(blob);
  const entry = entries.get(blob)!;
  entry.users++;
  clearTimeout(entry.timer);
  return () => {
    entry.users--;
    if (entry.users > 0) return;
    entry.timer = setTimeout(() => {
      if (entry.users > 0) return;
      URL.revokeObjectURL(entry.url);
      entries.delete(blob);
    }, 0);
  };
}

/** An object URL for a Blob while the component shows it: revoked when the Blob changes or the component goes. */
export function useObjectUrl(blob: Blob | undefined | null): string | null {
  const url = blob ? objectUrlOf(blob) : null;
  useEffect(() => (blob ? holdObjectUrl(blob) : undefined), [blob]);
  return url;
}
