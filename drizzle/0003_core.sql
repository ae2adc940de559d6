CREATE TABLE "core_unauth_tokens" (
	"account_id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"sku" text NOT NULL,
	"name" text NOT NULL,
	"product_type" text NOT NULL,
	"width_in" double precision NOT NULL,
	"height_in" double precision NOT NULL,
	"bleed_mm" double precision NOT NULL,
	"min_ppi" integer NOT NULL,
	"color_mode" text NOT NULL,
	"price" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_status" CHECK ("products"."status" IN ('active', 'archived')),
	CONSTRAINT "products_color_mode" CHECK ("products"."color_mode" IN ('rgb', 'cmyk', 'grayscale')),
	CONSTRAINT "products_product_type" CHECK ("products"."product_type" IN ('photo_on_canvas', 'poster', 'wallpaper', 'framed_print', 'wrapping_paper', 'stock_canvas')),
	CONSTRAINT "products_price_non_negative" CHECK ("products"."price" >= 0),
	CONSTRAINT "products_dimensions_positive" CHECK ("products"."width_in" > 0 AND "products"."height_in" > 0 AND "products"."bleed_mm" >= 0 AND "products"."min_ppi" > 0)
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"product_id" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"design_file_url" text,
	"preflight_report_id" text,
	"customer_email" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_status" CHECK ("projects"."status" IN ('draft', 'submitted', 'approved', 'in_production', 'shipped', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "core_unauth_tokens" ADD CONSTRAINT "core_unauth_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_preflight_report_id_preflight_reports_id_fk" FOREIGN KEY ("preflight_report_id") REFERENCES "public"."preflight_reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "core_unauth_tokens_token_key" ON "core_unauth_tokens" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "products_account_sku_key" ON "products" USING btree ("account_id","sku");--> statement-breakpoint
CREATE INDEX "products_account_created_idx" ON "products" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_account_updated_idx" ON "products" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_account_name_idx" ON "products" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "products_account_status_created_idx" ON "products" USING btree ("account_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "products_account_status_updated_idx" ON "products" USING btree ("account_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "products_account_status_name_idx" ON "products" USING btree ("account_id","status","name","id");--> statement-breakpoint
CREATE INDEX "products_public_created_idx" ON "products" USING btree ("account_id","created_at","id") WHERE "products"."is_public";--> statement-breakpoint
CREATE INDEX "products_public_updated_idx" ON "products" USING btree ("account_id","updated_at","id") WHERE "products"."is_public";--> statement-breakpoint
CREATE INDEX "products_public_name_idx" ON "products" USING btree ("account_id","name","id") WHERE "products"."is_public";--> statement-breakpoint
CREATE INDEX "projects_account_created_idx" ON "projects" USING btree ("account_id","created_at","id");--> statement-breakpoint
CREATE INDEX "projects_account_updated_idx" ON "projects" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "projects_account_name_idx" ON "projects" USING btree ("account_id","name","id");--> statement-breakpoint
CREATE INDEX "projects_account_status_created_idx" ON "projects" USING btree ("account_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "projects_account_status_updated_idx" ON "projects" USING btree ("account_id","status","updated_at","id");--> statement-breakpoint
CREATE INDEX "projects_account_status_name_idx" ON "projects" USING btree ("account_id","status","name","id");--> statement-breakpoint
CREATE INDEX "projects_product_created_idx" ON "projects" USING btree ("product_id","created_at","id");--> statement-breakpoint
CREATE INDEX "projects_preflight_report_idx" ON "projects" USING btree ("preflight_report_id");