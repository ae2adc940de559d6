CREATE TABLE "face_crop_items" (
	"id" text PRIMARY KEY NOT NULL,
	"task_id" text NOT NULL,
	"account_id" text NOT NULL,
	"position" integer NOT NULL,
	"filename" text NOT NULL,
	"source_url" text,
	"source_key" text,
	"charged" boolean NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"error_message" text,
	"width" integer,
	"height" integer,
	"face_box" jsonb,
	"landmarks" jsonb,
	"faces_found" integer,
	"crop_box" jsonb,
	"edge" text,
	"manual" boolean DEFAULT false NOT NULL,
	"enhancement" text,
	"version" integer DEFAULT 0 NOT NULL,
	"original_key" text,
	"medium_key" text,
	"output_width" integer,
	"output_height" integer,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "face_crop_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"icp_type" text NOT NULL,
	"enhance" boolean NOT NULL,
	"total_files" integer NOT NULL,
	"processed_files" integer DEFAULT 0 NOT NULL,
	"price_per_file" integer NOT NULL,
	"tokens_debited" integer NOT NULL,
	"wallet_transaction_id" text NOT NULL,
	"tokens_refunded" integer DEFAULT 0 NOT NULL,
	"refund_transaction_id" text,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "face_crop_items" ADD CONSTRAINT "face_crop_items_task_id_face_crop_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."face_crop_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_crop_tasks" ADD CONSTRAINT "face_crop_tasks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "face_crop_items_task_position_idx" ON "face_crop_items" USING btree ("task_id","position");--> statement-breakpoint
CREATE INDEX "face_crop_items_account_idx" ON "face_crop_items" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "face_crop_tasks_account_created_idx" ON "face_crop_tasks" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "face_crop_tasks_status_idx" ON "face_crop_tasks" USING btree ("status","mode");