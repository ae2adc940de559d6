CREATE TABLE "preflight_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "preflight_reports_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" text NOT NULL,
	"design_id" text NOT NULL,
	"status" text NOT NULL,
	"file_type" text NOT NULL,
	"file_mime" text NOT NULL,
	"file_size" integer NOT NULL,
	"file_storage_key" text NOT NULL,
	"params" jsonb NOT NULL,
	"facts" jsonb NOT NULL,
	"issues" jsonb NOT NULL,
	"analysis_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "preflight_reports_status" CHECK ("preflight_reports"."status" IN ('pass', 'warning', 'fail')),
	CONSTRAINT "preflight_reports_file_type" CHECK ("preflight_reports"."file_type" IN ('jpeg', 'png', 'tiff', 'pdf'))
);
--> statement-breakpoint
CREATE TABLE "preflight_usage" (
	"account_id" text NOT NULL,
	"period_start" date NOT NULL,
	"checks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "preflight_usage_account_id_period_start_pk" PRIMARY KEY("account_id","period_start"),
	CONSTRAINT "preflight_usage_non_negative" CHECK ("preflight_usage"."checks" >= 0)
);
--> statement-breakpoint
ALTER TABLE "preflight_reports" ADD CONSTRAINT "preflight_reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "preflight_usage" ADD CONSTRAINT "preflight_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "preflight_reports_account_seq_idx" ON "preflight_reports" USING btree ("account_id","seq");