import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [".next/**", ".next-*/**", "dist/**", "node_modules/**", ".data/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "bench/results/**"],
  },
  {
    files: ["**/*.test.ts", "test/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // CommonJS config files (the layer list, the dependency rule) load each other with require.
    files: ["*.cjs"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];

export default config;
