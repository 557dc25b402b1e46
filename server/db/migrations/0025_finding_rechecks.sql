-- 'Check again' on a finding (server/rechecks/): each one a row, run by the job queue like scans (server/jobs/lease.ts
-- leases it: state, attempts, heartbeat_at, started_at, finished_at, error), so that in team mode a re-check runs once
-- whichever process takes it, a slow site holds no request open, and a server stopped mid-check puts it back. The
-- finding's check, page and title are copied from the scan it was found in (`scan_id`, no foreign key: the History
-- keeps the answer when the scan is gone). At most one queued or running re-check per finding of a project: a second
-- press finds the first (the partial unique index below).
CREATE TABLE "finding_rechecks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"scan_id" uuid,
	"fingerprint" text NOT NULL,
	"check_id" text NOT NULL,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"status" text,
	"reason" text,
	"duration_ms" integer,
	"error" text,
	CONSTRAINT "finding_rechecks_state_check" CHECK ("state" IN ('queued', 'running', 'completed', 'failed')),
	CONSTRAINT "finding_rechecks_status_check" CHECK ("status" IN ('fixed', 'still_there', 'unknown')),
	CONSTRAINT "finding_rechecks_text_check" CHECK (char_length("title") <= 300 AND char_length("url") <= 2048 AND char_length("check_id") <= 100 AND char_length("fingerprint") <= 100 AND char_length(coalesce("reason", '')) <= 500 AND char_length(coalesce("error", '')) <= 500)
);--> statement-breakpoint
ALTER TABLE "finding_rechecks" ADD CONSTRAINT "finding_rechecks_project_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "finding_rechecks" ADD CONSTRAINT "finding_rechecks_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "finding_rechecks_one_active" ON "finding_rechecks" USING btree ("project_id","fingerprint") WHERE "state" IN ('queued', 'running');--> statement-breakpoint
CREATE INDEX "finding_rechecks_project_created_idx" ON "finding_rechecks" USING btree ("project_id","created_at","id");
