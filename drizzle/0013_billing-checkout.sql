CREATE TYPE "public"."checkout_status" AS ENUM('open', 'awaiting_payment', 'paid', 'failed', 'expired');--> statement-breakpoint
ALTER TYPE "public"."ledger_type" ADD VALUE 'purchase';--> statement-breakpoint
CREATE TABLE "billing_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"pack_id" text NOT NULL,
	"tokens" integer NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"status" "checkout_status" DEFAULT 'open' NOT NULL,
	"wallet_transaction_id" text,
	"payment_intent_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "billing_checkouts_wallet_transaction_id_unique" UNIQUE("wallet_transaction_id")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "stripe_customer_id" text;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_checkouts" ADD CONSTRAINT "billing_checkouts_wallet_transaction_id_wallet_transactions_id_fk" FOREIGN KEY ("wallet_transaction_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "billing_checkouts_account_idx" ON "billing_checkouts" USING btree ("account_id","created_at");--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_stripe_customer_id_unique" UNIQUE("stripe_customer_id");