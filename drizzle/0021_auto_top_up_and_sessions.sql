CREATE TYPE "public"."auto_top_up_status" AS ENUM('pending', 'charging', 'succeeded', 'failed');--> statement-breakpoint
CREATE TABLE "billing_auto_top_up_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"pack_id" text NOT NULL,
	"balance_at_trigger" integer NOT NULL,
	"tokens" integer,
	"amount" integer,
	"currency" text,
	"payment_intent_id" text,
	"status" "auto_top_up_status" DEFAULT 'pending' NOT NULL,
	"failure" text,
	"wallet_transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "billing_auto_top_up_attempts_payment_intent_id_unique" UNIQUE("payment_intent_id"),
	CONSTRAINT "billing_auto_top_up_attempts_wallet_transaction_id_unique" UNIQUE("wallet_transaction_id")
);
--> statement-breakpoint
CREATE TABLE "billing_auto_top_ups" (
	"account_id" text PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"threshold" integer DEFAULT 0 NOT NULL,
	"pack_id" text,
	"payment_method_id" text,
	"card_label" text,
	"in_flight_id" text,
	"in_flight_since" timestamp with time zone,
	"last_failure" text,
	"last_failed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"user_agent" text,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "billing_auto_top_up_attempts" ADD CONSTRAINT "billing_auto_top_up_attempts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_auto_top_up_attempts" ADD CONSTRAINT "billing_auto_top_up_attempts_wallet_transaction_id_wallet_transactions_id_fk" FOREIGN KEY ("wallet_transaction_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_auto_top_ups" ADD CONSTRAINT "billing_auto_top_ups_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_sessions" ADD CONSTRAINT "login_sessions_user_id_accounts_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_auto_top_up_attempts_account_idx" ON "billing_auto_top_up_attempts" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "login_sessions_user_idx" ON "login_sessions" USING btree ("user_id","last_seen_at");