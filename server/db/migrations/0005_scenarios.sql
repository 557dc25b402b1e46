CREATE TABLE "scenarios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"project_id" uuid,
	"website" text NOT NULL,
	"actions" jsonb NOT NULL,
	"summarized_actions" text,
	"scenario_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scenario_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scenario_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"duration_ms" integer,
	"failed_step" integer,
	"error" text,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"console_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"failed_requests" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"screenshot" bytea,
	"trace" bytea
);
--> statement-breakpoint
ALTER TABLE "scenarios" ADD CONSTRAINT "scenarios_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scenario_runs" ADD CONSTRAINT "scenario_runs_scenario_id_scenarios_id_fk" FOREIGN KEY ("scenario_id") REFERENCES "public"."scenarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scenarios_user_created_idx" ON "scenarios" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "scenarios_project_idx" ON "scenarios" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "scenario_runs_scenario_idx" ON "scenario_runs" USING btree ("scenario_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "scenario_runs_one_active" ON "scenario_runs" USING btree ("scenario_id") WHERE status in ('queued', 'running');
