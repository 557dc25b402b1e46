-- The workspace each user last chose (PUT /workspaces/last), so a sign-in on a new device or a cleared browser
-- starts there rather than in the personal workspace. Null: the personal one. A deleted workspace forgets itself.
ALTER TABLE "user_preferences" ADD COLUMN "last_workspace_id" uuid REFERENCES "workspaces"("id") ON DELETE SET NULL;
