CREATE INDEX IF NOT EXISTS "scans_user_queued_idx" ON "scans" USING btree ("user_id","queued_at","id");
