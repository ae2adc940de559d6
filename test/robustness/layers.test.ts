import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The dependency rule (npm run lint) checks imports; a file with no imports, or a new
// top folder with none yet, would slip past it. This walks the tree itself.
const { LAYERS, PRODUCTS } = createRequire(import.meta.url)("../../layers.cjs") as {
  LAYERS: { name: string; path: string }[];
  PRODUCTS: string[];
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx|mts|mjs|cjs|js)$/.test(e.name) ? [p] : [];
  });
}

describe("the layers", () => {
  it("hold every source file of app/, components/, inngest/ and lib/", () => {
    const files = ["app", "components", "inngest", "lib"].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(500);
    const outside = files.filter((f) => !LAYERS.some((l) => new RegExp(l.path).test(f)));
    expect(outside).toEqual([]);
  });

  it("name lib/'s top folders, and list every product in its order", () => {
    const top = fs.readdirSync("lib", { withFileTypes: true });
    expect(top.filter((e) => !e.isDirectory()).map((e) => e.name)).toEqual([]);
    const layerFolders = top.map((e) => `lib/${e.name}/`);
    expect(layerFolders.filter((f) => !LAYERS.some((l) => new RegExp(l.path).test(f)))).toEqual([]);
    const products = fs.readdirSync("lib/services", { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(products.filter((p) => !PRODUCTS.includes(p))).toEqual([]);
    expect(PRODUCTS.filter((p) => !products.includes(p))).toEqual([]);
  });
});
