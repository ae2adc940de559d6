ALTER TABLE "lab_batches" DROP CONSTRAINT "lab_batches_status";--> statement-breakpoint
ALTER TABLE "lab_batches" ADD CONSTRAINT "lab_batches_status" CHECK ("lab_batches"."status" IN ('rendering', 'ready', 'held', 'sent', 'printed', 'shipped', 'failed'));--> statement-breakpoint
UPDATE "lab_batches" SET "status" = 'held', "error" = NULL WHERE "status" = 'failed' AND "error" = 'Every item of this batch is on hold: see the reasons on each item.';
