CREATE TABLE "order_shipments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"account_id" text NOT NULL,
	"batch_id" text,
	"carrier" text,
	"tracking_number" text,
	"shipped_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_shipments" ADD CONSTRAINT "order_shipments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "order_shipments_order_batch_key" ON "order_shipments" USING btree ("order_id","batch_id");--> statement-breakpoint
CREATE INDEX "order_shipments_order_idx" ON "order_shipments" USING btree ("order_id","shipped_at");--> statement-breakpoint
INSERT INTO "order_shipments" ("id", "order_id", "account_id", "batch_id", "carrier", "tracking_number", "shipped_at") SELECT 'shp_' || substr(md5("id"), 1, 24), "id", "account_id", NULL, "carrier", "tracking_number", "shipped_at" FROM "orders" WHERE "shipped_at" IS NOT NULL;
