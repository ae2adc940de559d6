import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Pages' components run in the browser. What they import from lib/ (outside the
// client layer, lib/client and lib/client/api-client) must be client-safe: value lists,
// prices, limits and pure helpers, never server code. This walks every file such
// an import reaches and fails on a runtime import of anything else than these
// packages (a database driver, sharp, node:fs... would end up in the page bundle,
// or break it). Type-only imports are erased and do not count.
const ROOT = process.cwd();
const CLIENT_SAFE_PACKAGES = new Set(["zod", "papaparse"]);
const CLIENT_LAYER = /^lib\/(client|api-client)\//;

const IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:([\s\S]*?)\s+from\s+)?["']([^"']+)["']/gm;

/** Runtime module specifiers of a file: `import type` and `{ type A, type B }` are left out. */
function runtimeImports(file: string): string[] {
  const source = fs.readFileSync(path.join(ROOT, file), "utf8");
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const [, typeOnly, clause, spec] = m;
    if (typeOnly) continue;
    const braces = clause?.trim().match(/^\{([\s\S]*)\}$/);
    if (braces && braces[1]!.split(",").map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith("type "))) continue;
    out.push(spec!);
  }
  return out;
}

function resolveLocal(from: string, spec: string): string | undefined {
  const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? path.posix.join(path.posix.dirname(from), spec) : undefined;
  if (base === undefined) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  }
  throw new Error(`${from}: cannot resolve ${spec}`);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe("what pages import from lib/", () => {
  const entries = new Map<string, string>(); // lib file -> the component that imports it
  for (const component of sourceFiles("components")) {
    for (const spec of runtimeImports(component)) {
      const target = resolveLocal(component, spec);
      if (target?.startsWith("lib/") && !CLIENT_LAYER.test(target)) entries.set(target, component);
    }
  }

  it("reaches lib/services only through value and pure-helper files", () => {
    expect([...entries.keys()].filter((f) => f.startsWith("lib/services/")).length).toBeGreaterThan(5);
  });

  it("is client-safe all the way down: no runtime import of server packages", () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    const walk = (file: string, via: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of runtimeImports(file)) {
        const local = resolveLocal(file, spec);
        if (local) walk(local, `${via} -> ${local}`);
        else if (!CLIENT_SAFE_PACKAGES.has(spec)) problems.push(`${via} imports "${spec}"`);
      }
    };
    for (const [file, component] of entries) walk(file, `${component} -> ${file}`);
    expect(problems).toEqual([]);
  });
});
