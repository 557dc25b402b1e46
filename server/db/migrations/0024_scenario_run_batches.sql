-- Run All queues its runs as one batch (server/scenarios/batches.ts): the member who pressed it gets one summary mail
-- when the last run of the batch has finished, not a mail per run. `batch_mailed_at` is set on the batch's first run
-- by the one finishing run that claims the summary, so two runs finishing together cannot both send it.
ALTER TABLE "scenario_runs" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "scenario_runs" ADD COLUMN "batch_mailed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "scenario_runs_batch_idx" ON "scenario_runs" USING btree ("batch_id") WHERE "batch_id" IS NOT NULL;
