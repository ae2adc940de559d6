// The layers of the code, top first, and the order of the products: read by
// .dependency-cruiser.cjs (npm run lint) and test/robustness/layers.test.ts.
// docs/architecture.md draws the same picture.
const LAYERS = [
  // Entry points: routes and pages, the app's job functions, the worker app.
  { name: "app", path: "^(app|inngest)/" },
  // Pages' components and the browser-side helpers they call the API with.
  { name: "components", path: "^(components|lib/client)/" },
  // Start-up, demo data and periodic work: puts services and lower areas together.
  { name: "composition", path: "^lib/composition/" },
  // The /v1 wrappers (auth, rate limit, zod, idempotency, errors) and the API description.
  { name: "http", path: "^lib/http/" },
  // One folder per product, and the sign-in flow.
  { name: "services", path: "^lib/services/" },
  // What products are made of: identity, money, files, jobs, webhooks, mail, audit.
  { name: "domain", path: "^lib/domain/" },
  // Engines: images, PDF, ML, worker threads. They know nothing of accounts, HTTP or jobs.
  { name: "engines", path: "^lib/engines/" },
  // Everyone's ground: database, settings, ids, logging, the error class, request helpers.
  { name: "foundation", path: "^lib/foundation/" },
];

// Top first. Each product may import only products below it (never above, never a cycle).
const PRODUCTS = [
  "production", // orders to prints: print files at each product's size, preflighted lab batches, slips
  "orders", // price sheets, Stripe Connect, parent checkout, the studio's orders
  "galleries", // parent galleries made from a sorted job: access codes, previews, favourites
  "studio-tasks", // GET .../studio/jobs/{taskId}: one poll URL over every studio task kind
  "qr-sort",
  "matching",
  "face-crop",
  "qr",
  "agencies", // agencies, jobs, rosters and job photos: what picture-day products work on
  "fixes",
  "core",
  "preflight",
  "bg-remove",
  "billing",
  "team",
  "sign-in",
  "billed-job", // single-charge jobs: their end with a refund
  "billed-batch",
];

module.exports = { LAYERS, PRODUCTS };
