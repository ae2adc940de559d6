import { defineConfig } from "drizzle-kit";

// Migrations are generated from lib/db/schema.ts (`npm run db:generate`) and
// committed; the app applies them itself at start (lib/db/migrate.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/*.ts",
  out: "./drizzle",
});
