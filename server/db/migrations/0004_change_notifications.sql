-- Tells every server process, on commit, whose projects, scans or reports changed: in-memory answers of list
-- routes are dropped on this news (server/changes/list-cache.ts), whichever process or instance wrote.
CREATE OR REPLACE FUNCTION "vibeeval_notify_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vibeeval_changes', (CASE WHEN TG_OP = 'DELETE' THEN OLD.user_id ELSE NEW.user_id END)::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "projects_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "projects" FOR EACH ROW EXECUTE FUNCTION "vibeeval_notify_user_change"();
--> statement-breakpoint
CREATE TRIGGER "scans_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "scans" FOR EACH ROW EXECUTE FUNCTION "vibeeval_notify_user_change"();
--> statement-breakpoint
CREATE TRIGGER "reports_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "reports" FOR EACH ROW EXECUTE FUNCTION "vibeeval_notify_user_change"();
