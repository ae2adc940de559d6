CREATE TABLE "lab_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"shipping" text NOT NULL,
	"job_id" integer,
	"paid_on" text,
	"status" text DEFAULT 'rendering' NOT NULL,
	"order_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"ready_at" timestamp (3) with time zone,
	"sent_at" timestamp (3) with time zone,
	"printed_at" timestamp (3) with time zone,
	"shipped_at" timestamp (3) with time zone,
	CONSTRAINT "lab_batches_status" CHECK ("lab_batches"."status" IN ('rendering', 'ready', 'sent', 'printed', 'shipped', 'failed')),
	CONSTRAINT "lab_batches_shipping" CHECK ("lab_batches"."shipping" IN ('direct', 'school'))
);
--> statement-breakpoint
CREATE TABLE "print_files" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"order_id" text NOT NULL,
	"order_item_id" text NOT NULL,
	"sheet_item_id" text NOT NULL,
	"product_id" text NOT NULL,
	"product_sku" text NOT NULL,
	"width_in" double precision NOT NULL,
	"height_in" double precision NOT NULL,
	"quantity" integer NOT NULL,
	"batch_id" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"hold_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"file_key" text,
	"thumb_key" text,
	"width_px" integer,
	"height_px" integer,
	"source_ppi" integer,
	"rendered_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "print_files_status" CHECK ("print_files"."status" IN ('pending', 'rendered', 'held'))
);
--> statement-breakpoint
CREATE TABLE "production_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"manifest_columns" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_batches" ADD CONSTRAINT "lab_batches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_files" ADD CONSTRAINT "print_files_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_files" ADD CONSTRAINT "print_files_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_files" ADD CONSTRAINT "print_files_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_files" ADD CONSTRAINT "print_files_batch_id_lab_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."lab_batches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "production_settings" ADD CONSTRAINT "production_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_batches_account_created_idx" ON "lab_batches" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "print_files_item_key" ON "print_files" USING btree ("order_item_id","sheet_item_id");--> statement-breakpoint
CREATE INDEX "print_files_batch_idx" ON "print_files" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "print_files_account_order_idx" ON "print_files" USING btree ("account_id","order_id");