-- Triage (server/triage/): a member's decision about one finding of a project, by the finding's fingerprint, so it
-- applies to every later scan of the project until it expires (accepted risk only) or the finding changes (a changed
-- finding has another fingerprint). One decision per fingerprint and project; reopening deletes it. Who decided and
-- when is kept with it.
CREATE TABLE "finding_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"fingerprint" text NOT NULL,
	"decision" text NOT NULL,
	"reason" text NOT NULL,
	"expires_at" timestamp with time zone,
	"decided_by" uuid NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finding_decisions_decision_check" CHECK ("decision" IN ('false_positive', 'accepted_risk')),
	CONSTRAINT "finding_decisions_reason_check" CHECK (char_length("reason") BETWEEN 1 AND 1000)
);--> statement-breakpoint
ALTER TABLE "finding_decisions" ADD CONSTRAINT "finding_decisions_project_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "finding_decisions" ADD CONSTRAINT "finding_decisions_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "finding_decisions_project_fingerprint_idx" ON "finding_decisions" USING btree ("project_id","fingerprint");--> statement-breakpoint
CREATE INDEX "finding_decisions_project_decided_idx" ON "finding_decisions" USING btree ("project_id","decided_at","id");
