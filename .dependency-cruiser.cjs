// The dependency rule, checked by `npm run lint` (dependency-cruiser), and the tree
// it describes: every top folder of lib/ is one layer. docs/architecture.md draws it.
//
// 1. No cycles.
// 2. No import from a lower layer to a higher one (a layer may import itself and below).
// 3. Every source file of app/, components/, inngest/ and lib/ is in a layer
//    (test/robustness/layers.test.ts fails on a file that is not, even one with no imports).
// 4. Products (lib/services/<product>) are ordered too: a product may import only the
//    products listed below it. A new product gets a line in PRODUCTS.
const { LAYERS, PRODUCTS } = require("./layers.cjs");

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

const productOrder = PRODUCTS.flatMap((lower, i) =>
  i === 0
    ? []
    : [
        {
          name: `product-order-${lower}`,
          comment: `${lower} is below ${PRODUCTS.slice(0, i).join(", ")} in PRODUCTS: it must not import from them`,
          severity: "error",
          from: { path: `^lib/services/${lower}/`, pathNot: "\\.test\\.tsx?$" },
          to: { path: `^lib/services/(${PRODUCTS.slice(0, i).join("|")})/` },
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
      from: { pathNot: "^lib/client/api-client/|^app/v1/openapi\\.json/routes\\.ts$" },
      to: { circular: true, pathNot: "^lib/client/api-client/|^app/v1/openapi\\.json/routes\\.ts$" },
    },
    {
      name: "in-a-layer",
      comment: "Every file in lib/ lives in a layer folder (see LAYERS); a new top folder of lib/ is checked by nothing",
      severity: "error",
      from: { path: "^lib/", pathNot: LAYERS.map((l) => l.path).join("|") },
      to: {},
    },
    {
      name: "product-listed",
      comment: "Every product folder is listed in PRODUCTS, so its place in the order is decided",
      severity: "error",
      from: { path: "^lib/services/", pathNot: `^lib/services/(${PRODUCTS.join("|")})/` },
      to: {},
    },
    ...upward,
    ...productOrder,
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
