-- Workspaces: records belong to a workspace, which users share as members. Every user has a personal workspace
-- whose id is the user's own id, so each user's existing records move into it by naming it (workspace_id =
-- user_id) and nothing else about them changes; `user_id` stays on each record as the member who made it.
CREATE TABLE "workspaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"personal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	-- A personal workspace is its owner's own: its id is the owner's id.
	CONSTRAINT "workspaces_personal_id_check" CHECK (NOT "personal" OR "id" = "owner_id")
);--> statement-breakpoint
CREATE INDEX "workspaces_owner_idx" ON "workspaces" USING btree ("owner_id");--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" uuid NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"user_id" uuid NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_pkey" PRIMARY KEY("workspace_id","user_id"),
	CONSTRAINT "workspace_members_role_check" CHECK ("role" IN ('owner', 'member'))
);--> statement-breakpoint
CREATE INDEX "workspace_members_user_idx" ON "workspace_members" USING btree ("user_id","joined_at");--> statement-breakpoint
-- One owner a workspace, always among its members.
CREATE UNIQUE INDEX "workspace_members_one_owner_idx" ON "workspace_members" USING btree ("workspace_id") WHERE "role" = 'owner';--> statement-breakpoint
CREATE TABLE "workspace_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL REFERENCES "workspaces"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"invited_by" uuid NOT NULL,
	-- SHA-256 of the invitation's secret; the secret itself is only in the mail.
	"token_hash" text NOT NULL UNIQUE,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "workspace_invitations_workspace_idx" ON "workspace_invitations" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
-- At most one open invitation per address and workspace.
CREATE UNIQUE INDEX "workspace_invitations_open_idx" ON "workspace_invitations" USING btree ("workspace_id", lower("email")) WHERE "accepted_at" IS NULL AND "revoked_at" IS NULL;--> statement-breakpoint
-- Personal workspaces of every account known here: local accounts, and hosted (Supabase) accounts that own records.
INSERT INTO "workspaces" ("id", "name", "owner_id", "personal")
SELECT "user_id", 'Personal', "user_id", true FROM (
	SELECT "id" AS "user_id" FROM "users"
	UNION SELECT "user_id" FROM "projects"
	UNION SELECT "user_id" FROM "scans"
	UNION SELECT "user_id" FROM "events"
	UNION SELECT "user_id" FROM "reports"
	UNION SELECT "user_id" FROM "scenarios"
	UNION SELECT "user_id" FROM "scenario_runs"
	UNION SELECT "user_id" FROM "api_keys"
	UNION SELECT "user_id" FROM "api_usage"
	UNION SELECT "user_id" FROM "webhooks"
	UNION SELECT "user_id" FROM "webhook_deliveries"
	UNION SELECT "user_id" FROM "continuous_builds"
	UNION SELECT "user_id" FROM "continuous_usage"
	UNION SELECT "user_id" FROM "subscriptions"
	UNION SELECT "user_id" FROM "user_preferences"
) AS "known";--> statement-breakpoint
INSERT INTO "workspace_members" ("workspace_id", "user_id", "email", "role")
SELECT w."id", w."owner_id", coalesce(u."email", ''), 'owner' FROM "workspaces" w LEFT JOIN "users" u ON u."id" = w."owner_id";--> statement-breakpoint
ALTER TABLE "projects" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "scenarios" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "scenario_runs" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "api_usage" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "continuous_builds" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "continuous_usage" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
UPDATE "projects" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "scans" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "events" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "reports" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "scenarios" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "scenario_runs" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "api_keys" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "api_usage" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "webhooks" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "webhook_deliveries" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "continuous_builds" SET "workspace_id" = "user_id";--> statement-breakpoint
UPDATE "continuous_usage" SET "workspace_id" = "user_id";--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "scenarios" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "scenario_runs" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_usage" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "continuous_builds" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "continuous_usage" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
-- A workspace's records go with it (leaving or removing a member takes nothing away from the workspace).
ALTER TABLE "projects" ADD CONSTRAINT "projects_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;--> statement-breakpoint
CREATE INDEX "projects_workspace_created_idx" ON "projects" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "scans_workspace_queued_idx" ON "scans" USING btree ("workspace_id","queued_at","id");--> statement-breakpoint
CREATE INDEX "events_workspace_time_idx" ON "events" USING btree ("workspace_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "reports_workspace_created_idx" ON "reports" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "scenarios_workspace_created_idx" ON "scenarios" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "scenario_runs_workspace_idx" ON "scenario_runs" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "api_keys_workspace_created_idx" ON "api_keys" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhooks_workspace_created_idx" ON "webhooks" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_workspace_idx" ON "webhook_deliveries" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "continuous_builds_workspace_created_idx" ON "continuous_builds" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
-- The list caches are keyed by workspace now: the change news names the workspace.
CREATE OR REPLACE FUNCTION "vibeeval_notify_user_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vibeeval_changes', (CASE WHEN TG_OP = 'DELETE' THEN OLD.workspace_id ELSE NEW.workspace_id END)::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
-- The monthly count of monitoring reports is the workspace's (its plan's quota); a user's rows were their personal workspace's.
ALTER TABLE "continuous_usage" DROP CONSTRAINT "continuous_usage_pkey";--> statement-breakpoint
ALTER TABLE "continuous_usage" ADD CONSTRAINT "continuous_usage_pkey" PRIMARY KEY ("workspace_id", "month");--> statement-breakpoint
-- The per-user list indexes served lists that are per workspace now. The events' one stays: the account's deletion
-- deletes its maker's events by user_id, and events are the largest table.
DROP INDEX "projects_user_id_created_idx";--> statement-breakpoint
DROP INDEX "scans_user_queued_idx";--> statement-breakpoint
DROP INDEX "reports_user_created_idx";--> statement-breakpoint
DROP INDEX "continuous_builds_user_created_idx";--> statement-breakpoint
-- Scenarios, API keys, webhooks and the API's daily count are listed and counted per workspace: the per-user
-- indexes gave way to the workspace ones above, and the daily count is one row per workspace and day.
DROP INDEX "scenarios_user_created_idx";--> statement-breakpoint
DROP INDEX "api_keys_user_created_idx";--> statement-breakpoint
DROP INDEX "webhooks_user_created_idx";--> statement-breakpoint
DROP INDEX "api_usage_user_day_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "api_usage_workspace_day_idx" ON "api_usage" USING btree ("workspace_id","day");
