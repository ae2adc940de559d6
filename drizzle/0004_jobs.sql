CREATE TYPE "public"."bg_remove_status" AS ENUM('pending', 'processing', 'completed', 'failed');--> statement-breakpoint
CREATE TYPE "public"."job_run_status" AS ENUM('queued', 'running', 'failing', 'completed', 'failed');--> statement-breakpoint
CREATE TABLE "bg_remove_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"status" "bg_remove_status" DEFAULT 'processing' NOT NULL,
	"image_url" text NOT NULL,
	"subject_type" text NOT NULL,
	"edge_softness" integer NOT NULL,
	"high_detail_mode" boolean NOT NULL,
	"output_background" text NOT NULL,
	"provider" text NOT NULL,
	"tokens_deducted" integer NOT NULL,
	"wallet_transaction_id" text NOT NULL,
	"output_key" text,
	"output_width" integer,
	"output_height" integer,
	"error_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"failed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"function_id" text NOT NULL,
	"event_id" text NOT NULL,
	"event_name" text NOT NULL,
	"event_data" jsonb NOT NULL,
	"event_ts" timestamp with time zone NOT NULL,
	"status" "job_run_status" DEFAULT 'queued' NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"locked_by" text,
	"lease_until" timestamp with time zone,
	"last_error" jsonb,
	"output" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "job_steps" (
	"run_id" text NOT NULL,
	"step_id" text NOT NULL,
	"output" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_steps_run_id_step_id_pk" PRIMARY KEY("run_id","step_id")
);
--> statement-breakpoint
ALTER TABLE "bg_remove_jobs" ADD CONSTRAINT "bg_remove_jobs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_steps" ADD CONSTRAINT "job_steps_run_id_job_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."job_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bg_remove_jobs_account_created_idx" ON "bg_remove_jobs" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_function_event_key" ON "job_runs" USING btree ("function_id","event_id");--> statement-breakpoint
CREATE INDEX "job_runs_claim_idx" ON "job_runs" USING btree ("status","run_after");