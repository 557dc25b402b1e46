-- A scan's checks run in a worker thread within a time budget. A check stopped over its budget, a worker that ran
-- out of memory, or a process that died while check code ran is a strike against the scan; a scan with two is not
-- run a third time but fails with the reason. checks_started_at is set while check code runs, so that a claim that
-- takes over an orphaned scan can tell whether its process died in the checks.
ALTER TABLE "scans" ADD COLUMN "check_strikes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "checks_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "public_scans" ADD COLUMN "check_strikes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "public_scans" ADD COLUMN "checks_started_at" timestamp with time zone;
