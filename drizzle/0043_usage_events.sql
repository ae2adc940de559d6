CREATE TABLE "production_usage_events" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"kind" text NOT NULL,
	"scale" text NOT NULL,
	"job_file_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "production_usage_events_kind" CHECK ("production_usage_events"."kind" IN ('cutout'))
);
--> statement-breakpoint
ALTER TABLE "production_usage_events" ADD CONSTRAINT "production_usage_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "production_usage_events_account_idx" ON "production_usage_events" USING btree ("account_id","created_at");--> statement-breakpoint
INSERT INTO "production_usage_events" ("id", "account_id", "kind", "scale", "job_file_id", "created_at") SELECT 'use_' || substr(md5("id"), 1, 24), "account_id", 'cutout', "scale", "job_file_id", "created_at" FROM "photo_mattes";--> statement-breakpoint
CREATE FUNCTION "photo_mattes_usage"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "production_usage_events" ("id", "account_id", "kind", "scale", "job_file_id", "created_at")
  VALUES ('use_' || substr(md5(NEW."id"), 1, 24), NEW."account_id", 'cutout', NEW."scale", NEW."job_file_id", NEW."created_at")
  ON CONFLICT ("id") DO NOTHING;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "photo_mattes_usage" AFTER INSERT ON "photo_mattes" FOR EACH ROW EXECUTE FUNCTION "photo_mattes_usage"();
