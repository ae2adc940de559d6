CREATE TYPE "public"."reversal_kind" AS ENUM('refund', 'dispute');--> statement-breakpoint
ALTER TYPE "public"."ledger_type" ADD VALUE 'reversal';--> statement-breakpoint
CREATE TABLE "billing_reversals" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"checkout_id" text NOT NULL,
	"kind" "reversal_kind" NOT NULL,
	"tokens" integer NOT NULL,
	"shortfall" integer NOT NULL,
	"wallet_transaction_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "wallet_transactions" DROP CONSTRAINT "wallet_transactions_sign";--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "hold_reason" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "held_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "billing_reversals" ADD CONSTRAINT "billing_reversals_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_reversals" ADD CONSTRAINT "billing_reversals_checkout_id_billing_checkouts_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."billing_checkouts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_reversals" ADD CONSTRAINT "billing_reversals_wallet_transaction_id_wallet_transactions_id_fk" FOREIGN KEY ("wallet_transaction_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_reversals_checkout_idx" ON "billing_reversals" USING btree ("checkout_id");--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_sign" CHECK (("wallet_transactions"."type"::text IN ('debit', 'reversal') AND "wallet_transactions"."amount" < 0) OR ("wallet_transactions"."type"::text NOT IN ('debit', 'reversal') AND "wallet_transactions"."amount" > 0));