DROP INDEX "events_user_time_idx";--> statement-breakpoint
DROP INDEX "events_project_time_idx";--> statement-breakpoint
DROP INDEX "projects_user_id_created_idx";--> statement-breakpoint
DROP INDEX "reports_user_created_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "scan_attempt" integer;--> statement-breakpoint
CREATE INDEX "events_scan_attempt_idx" ON "events" USING btree ("scan_id","scan_attempt") WHERE scan_attempt is not null;--> statement-breakpoint
CREATE INDEX "events_user_time_idx" ON "events" USING btree ("user_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "events_project_time_idx" ON "events" USING btree ("project_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "projects_user_id_created_idx" ON "projects" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "reports_user_created_idx" ON "reports" USING btree ("user_id","created_at","id");