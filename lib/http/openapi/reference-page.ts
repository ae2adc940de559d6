import fs from "node:fs/promises";
import path from "node:path";

/**
 * The API reference page (/docs): Scalar's standalone bundle from node_modules
 * (@scalar/api-reference), rendering GET /v1/openapi.json, with try-it-out
 * against this server. Nothing is fetched from a CDN: default fonts, telemetry
 * and the hosted agent are off, and no request proxy is configured (the page
 * and the API share an origin).
 *
 * The mount point is not `#api-reference`: the standalone bundle mounts an app of
 * its own on an element with that id when it loads, with no document, so the page
 * had two (a loading skeleton that never ended and a second sidebar above the
 * real reference, issue 22).
 */
export const REFERENCE_BUNDLE = "node_modules/@scalar/api-reference/dist/browser/standalone.js";

export function referencePageHtml(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Print Studio API reference</title>
    <style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}.studio-back{display:block;padding:8px 16px;border-bottom:1px solid #e2e8f0;font-size:14px;color:#1d4ed8;text-decoration:none}.studio-back:hover{text-decoration:underline}</style>
  </head>
  <body>
    <a class="studio-back" href="/dashboard">← Back to the studio</a>
    <div id="studio-api-reference"></div>
    <script src="/docs/reference.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;
}

export function referenceInitScript(): string {
  const options = {
    url: "/v1/openapi.json",
    withDefaultFonts: false,
    telemetry: false,
    // No cloud features: "Ask AI" (the hosted agent) and "Generate MCP" call Scalar's services.
    agent: { disabled: true },
    mcp: { disabled: true },
    hideClientButton: true,
    showDeveloperTools: "never",
    defaultOpenAllTags: false,
    metaData: { title: "Print Studio API reference" },
    customCss: ":root{--scalar-font:ui-sans-serif,system-ui,sans-serif;--scalar-font-code:ui-monospace,SFMono-Regular,Menlo,monospace}",
  };
  return `Scalar.createApiReference("#studio-api-reference", Object.assign(${JSON.stringify(options)}, { servers: [{ url: window.location.origin, description: "This server" }] }));\n`;
}

let bundle: Promise<string> | undefined;

/**
 * The bundle as served. Its @font-face rules point at fonts.scalar.com whatever
 * `withDefaultFonts` says; those sources become `local()` ones, so the browser
 * falls back to the system fonts instead of calling a CDN.
 */
export function referenceBundle(): Promise<string> {
  bundle ??= fs.readFile(path.join(process.cwd(), REFERENCE_BUNDLE), "utf8").then((js) => js.replace(/url\(https:\/\/fonts\.scalar\.com\/([\w.-]+)\)/g, 'local("scalar-$1")'));
  return bundle;
}
