import type { Metadata, Viewport } from "next";
import { Providers } from "@/components/providers";

// Parent galleries: private pages, never indexed, and nothing of the studio's other work.
export const metadata: Metadata = {
  title: { default: "Your photos", template: "%s · Your photos" },
  robots: { index: false, follow: false, nocache: true, googleBot: { index: false, follow: false } },
  referrer: "no-referrer",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function GalleryLayout({ children }: { children: React.ReactNode }) {
  return (
    <Providers>
      <main className="mx-auto min-h-screen max-w-5xl px-3 py-4 sm:px-6 sm:py-8">{children}</main>
    </Providers>
  );
}
