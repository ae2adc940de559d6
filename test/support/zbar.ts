// zbarimg, an independent QR reader, for checking what our own card reader decided.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** zbar's reading of a frame, or null when zbarimg is not installed. */
export function zbar(bytes: Buffer): string[] | null {
  if (!fs.existsSync("/usr/bin/zbarimg")) return null;
  const file = path.join(os.tmpdir(), `zbar-${process.pid}-${Math.random().toString(36).slice(2)}.jpg`);
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync("/usr/bin/zbarimg", ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).split("\n").filter(Boolean);
  } catch {
    return []; // exit status 4: no code found
  } finally {
    fs.rmSync(file, { force: true });
  }
}
