-- Every end of a session (a sign-out, a password change that signs the others out, a reused refresh token, the
-- account's deletion through its cascade) is announced on commit to every process on this database: each keeps
-- answers about sessions for a moment and holds live streams open for them, and drops both on this news.
CREATE OR REPLACE FUNCTION "vibeeval_notify_session_end"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vibeeval_sessions', OLD.user_id::text || ':' || OLD.id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "auth_sessions_end_notify" AFTER DELETE ON "auth_sessions" FOR EACH ROW EXECUTE FUNCTION "vibeeval_notify_session_end"();
