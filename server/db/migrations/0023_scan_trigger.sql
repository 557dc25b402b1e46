-- Scan history (server/scan-history/): what started each scan, so a project's history can say it in words.
-- manual = the dashboard (Run Test, a security report asked for), schedule = monitoring's scheduled re-scan,
-- site_change = continuous testing (the monitoring script saw the site change), api = /v1 and MCP (the CLI scans on its own and stores no scan).
-- Scans stored before this migration were started from the dashboard or the API; they read as manual.
ALTER TABLE "scans" ADD COLUMN "trigger" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_trigger_check" CHECK ("trigger" IN ('manual', 'schedule', 'site_change', 'api'));
