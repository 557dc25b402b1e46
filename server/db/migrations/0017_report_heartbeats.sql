-- Report jobs are claimed like scans and scenario runs: a running report says it is alive (heartbeat_at), so one
-- whose worker died is taken over after a restart instead of staying 'running' for ever; attempts bounds how often.
ALTER TABLE "reports" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;
