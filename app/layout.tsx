import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Print Studio", template: "%s · Print Studio" },
  description: "Print and photo studio services: background removal, preflight, QR cards and face matching, billed per token.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
