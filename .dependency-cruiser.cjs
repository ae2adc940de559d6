// The dependency rule, checked by `npm run lint` (dependency-cruiser): no cycles,
// and no import from a lower layer to a higher one. The layers are written once,
// here, top to bottom; docs/architecture.md draws the same picture.
//
// A layer may import from any layer below it and from itself. Files that match no
// layer (tests, scripts, benches, config files) are not checked.
const LAYERS = [
  // Entry points: routes and pages, the app's job functions, the worker app.
  { name: "app", path: "^(app|inngest)/" },
  // Pages' components and the browser-side helpers they call the API with.
  { name: "components", path: "^(components|lib/client|lib/api-client)/" },
  // Start-up and periodic work: put services and lower areas together.
  { name: "composition", path: "^lib/(startup\\.ts|serverless-checks\\.ts|demo/|maintenance/)" },
  // The /v1 wrappers and the API description built from the routes.
  { name: "http", path: "^lib/(http/(wrappers|with-core|create-handler|methods|parse-input|rate-limit|error-response|route-meta)\\.ts|openapi/|idempotency/(?!context\\.ts))" },
  // One folder per product.
  { name: "services", path: "^lib/services/" },
  // What services are made of: money, accounts and credentials, files, jobs, webhooks.
  { name: "domain", path: "^lib/(wallet|webhooks|jobs|accounts|auth|api-keys|uploads|sources|storage|net|mail|audit)/" },
  // Engines: they know nothing of accounts, HTTP or jobs.
  { name: "engines", path: "^lib/(ml|imaging|pdf|workers)/" },
  // Everyone's ground: database, settings, ids, logging, the error class, request
  // context (origin, idempotency claim) and body readers any layer may use.
  { name: "foundation", path: "^lib/(db/|log/|config\\.ts|parse-env\\.ts|ids\\.ts|secret\\.ts|count-noun\\.ts|graceful-shutdown\\.ts|idempotency/context\\.ts|http/(api-error|app-origin|request-context|request-id|client-ip|pagination|decimal-int|limiter-store|read-[a-z-]+|validation-error|no-body)\\.ts)" },
];

const upward = LAYERS.flatMap((lower, i) =>
  i === 0
    ? []
    : [
        {
          name: `no-upward-from-${lower.name}`,
          comment: `${lower.name} is below ${LAYERS.slice(0, i).map((l) => l.name).join(", ")}: it must not import from them`,
          severity: "error",
          // Tests sit beside the code they test and may drive it from the top (a route).
          from: { path: lower.path, pathNot: "\\.test\\.tsx?$" },
          to: { path: LAYERS.slice(0, i).map((l) => l.path).join("|") },
        },
      ],
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "A cycle makes every file in it depend on all the others: move the shared piece down a layer",
      severity: "error",
      // Generated files aside: the typed client, and the route list the OpenAPI route loads.
      from: { pathNot: "^lib/api-client/|^app/v1/openapi\\.json/routes\\.ts$" },
      to: { circular: true, pathNot: "^lib/api-client/|^app/v1/openapi\\.json/routes\\.ts$" },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|\\.data|dist|coverage)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
