CREATE TABLE "photo_mattes" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"job_file_id" integer NOT NULL,
	"scale" text NOT NULL,
	"storage_key" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"doubts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "photo_mattes_scale" CHECK ("photo_mattes"."scale" IN ('full', 'preview'))
);
--> statement-breakpoint
CREATE TABLE "studio_backgrounds" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"color" text,
	"storage_key" text,
	"thumbnail_key" text,
	"content_type" text,
	"width" integer,
	"height" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studio_backgrounds_kind" CHECK (("studio_backgrounds"."kind" = 'color' AND "studio_backgrounds"."color" IS NOT NULL) OR ("studio_backgrounds"."kind" = 'image' AND "studio_backgrounds"."storage_key" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "background_id" text;--> statement-breakpoint
ALTER TABLE "print_files" ADD COLUMN "background_id" text;--> statement-breakpoint
ALTER TABLE "print_files" ADD COLUMN "hold_code" text;--> statement-breakpoint
ALTER TABLE "print_files" ADD COLUMN "matte_released" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "photo_mattes" ADD CONSTRAINT "photo_mattes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_mattes" ADD CONSTRAINT "photo_mattes_job_file_id_job_files_id_fk" FOREIGN KEY ("job_file_id") REFERENCES "public"."job_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_backgrounds" ADD CONSTRAINT "studio_backgrounds_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "photo_mattes_file_scale_key" ON "photo_mattes" USING btree ("job_file_id","scale");--> statement-breakpoint
CREATE INDEX "studio_backgrounds_account_idx" ON "studio_backgrounds" USING btree ("account_id","created_at");