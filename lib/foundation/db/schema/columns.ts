import { text, timestamp } from "drizzle-orm/pg-core";
import { accounts } from "./accounts";

// Column shapes the selling tables (orders, production) share: every row belongs to
// an account and goes with it; times to the millisecond, with their time zone.

export const stamp = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 }).notNull().defaultNow();
export const maybeStamp = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });
export const accountId = () =>
  text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" });
