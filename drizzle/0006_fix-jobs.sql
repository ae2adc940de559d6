CREATE TABLE "fix_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"report_id" text NOT NULL,
	"status" text NOT NULL,
	"file_kind" text NOT NULL,
	"tier" text NOT NULL,
	"fix_types" jsonb NOT NULL,
	"prepress_steps" jsonb NOT NULL,
	"target_dpi" integer NOT NULL,
	"review" boolean DEFAULT false NOT NULL,
	"suggestions" jsonb,
	"before_preview_key" text,
	"after_preview_key" text,
	"approved_fix_types" jsonb,
	"applied" jsonb,
	"flattened_pages" jsonb,
	"engine" text,
	"tokens_deducted" integer NOT NULL,
	"wallet_transaction_id" text NOT NULL,
	"output_key" text,
	"output_mime" text,
	"recheck" jsonb,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	CONSTRAINT "fix_jobs_status" CHECK ("fix_jobs"."status" IN ('analyzing', 'awaiting_approval', 'applying', 'completed', 'failed', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "fix_jobs" ADD CONSTRAINT "fix_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fix_jobs_account_created_idx" ON "fix_jobs" USING btree ("account_id","created_at");