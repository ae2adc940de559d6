// A server start for the restart test: the same register() that Next.js calls
// from instrumentation.ts (lock, migrations, demo account, job runner), then
// "UP" on stdout, then it idles until killed.
import { register } from "@/instrumentation";

process.env.NEXT_RUNTIME = "nodejs";
void register().then(() => {
  console.log("UP");
  setInterval(() => {}, 60_000);
});
