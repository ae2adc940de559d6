import { defineConfig } from "drizzle-kit";

// Migrations are generated from lib/foundation/db/schema.ts (`npm run db:generate`) and
// committed; the app applies them itself at start (lib/foundation/db/migrate.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/foundation/db/schema/*.ts",
  out: "./drizzle",
});
