ALTER TABLE "continuous_builds" ADD COLUMN "trigger" text DEFAULT 'script' NOT NULL;--> statement-breakpoint
ALTER TABLE "continuous_builds" ADD COLUMN "scan_id" uuid;--> statement-breakpoint
ALTER TABLE "continuous_builds" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "continuous_builds" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "continuous_builds" ADD CONSTRAINT "continuous_builds_scan_id_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "continuous_builds_scan_idx" ON "continuous_builds" USING btree ("scan_id");--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "monitor_frequency" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "monitor_hour" smallint DEFAULT 9 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "monitor_weekday" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "monitor_timezone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "monitor_last_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "projects_monitor_idx" ON "projects" USING btree ("monitor_frequency") WHERE "monitor_frequency" <> 'off';--> statement-breakpoint
CREATE TABLE "continuous_usage" (
	"user_id" uuid NOT NULL,
	"month" date NOT NULL,
	"reports" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "continuous_usage_pkey" PRIMARY KEY("user_id","month")
);
