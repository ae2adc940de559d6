import type { Config } from "tailwindcss";

// Tailwind v4 reads this through `@config` in app/globals.css.
export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: { 50: "#eef6ff", 100: "#d9eaff", 500: "#2f6fed", 600: "#1f57c9", 700: "#1a469f" },
      },
    },
  },
} satisfies Config;
