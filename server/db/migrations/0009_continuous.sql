ALTER TABLE "projects" ADD COLUMN "site_token" text DEFAULT 'vst_' || substr(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 1, 24) NOT NULL;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_site_token_unique" UNIQUE("site_token");--> statement-breakpoint
CREATE TABLE "continuous_builds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"build_hash" text NOT NULL,
	"status" text DEFAULT 'other' NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "continuous_builds" ADD CONSTRAINT "continuous_builds_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "continuous_builds_user_created_idx" ON "continuous_builds" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "continuous_builds_project_created_idx" ON "continuous_builds" USING btree ("project_id","created_at");
