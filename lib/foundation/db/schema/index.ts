// The whole database schema, one file per area. drizzle-kit reads this folder
// (drizzle.config.ts) and the app imports "@/lib/foundation/db/schema".
export * from "./accounts";
export * from "./preflight";
export * from "./studio";
export * from "./core";
export * from "./jobs";
export * from "./bg-remove";
export * from "./face-crop";
export * from "./fix-jobs";
export * from "./idempotency";
export * from "./matching";
export * from "./webhooks";
export * from "./billing";
export * from "./qr-sort";
export * from "./team";
export * from "./mail";
export * from "./galleries";
export * from "./orders";
export * from "./production";
