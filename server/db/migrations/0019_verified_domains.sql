-- Domains a workspace proves it controls (server/domains/): a token served at
-- https://<domain>/.well-known/vibeeval-verification.txt or in a DNS TXT record. On a shared server, active mode runs
-- only on a verified domain (and its subdomains). A domain is listed once per workspace; two workspaces may each
-- prove the same domain with their own tokens.
CREATE TABLE "verified_domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"verified_at" timestamp with time zone,
	"checked_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "verified_domains" ADD CONSTRAINT "verified_domains_workspace_fk" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE;--> statement-breakpoint
CREATE UNIQUE INDEX "verified_domains_workspace_domain_idx" ON "verified_domains" USING btree ("workspace_id","domain");--> statement-breakpoint
CREATE INDEX "verified_domains_workspace_created_idx" ON "verified_domains" USING btree ("workspace_id","created_at","id");--> statement-breakpoint
-- A project's active mode (probes that act: a reflected marker, one throwaway sign-up), off by default; a scan
-- records whether it was asked to run active (the project's mode or the API's options.active).
ALTER TABLE "projects" ADD COLUMN "active_mode" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "active" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- When a member confirmed having permission to test the project's site (the terms require it); the desktop app asks
-- before the project's first scan while this is unset.
ALTER TABLE "projects" ADD COLUMN "permission_confirmed_at" timestamp with time zone;
