CREATE TABLE "public_scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"email" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"result" jsonb,
	"grade" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"mail_state" text DEFAULT 'pending' NOT NULL,
	"mail_error" text,
	"mail_attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"mailed_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "public_scans_pending_idx" ON "public_scans" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "public_scans_mail_idx" ON "public_scans" USING btree ("mail_state","created_at");