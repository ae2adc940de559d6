ALTER TABLE "order_items" ADD COLUMN "digital" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "order_refunds" ADD COLUMN "failed_at" timestamp with time zone;