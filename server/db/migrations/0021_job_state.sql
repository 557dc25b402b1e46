-- Every job whose row a worker leases (scans, public_scans, reports, scenario_runs) keeps its lifecycle in one column
-- named `state`, read and written by one lease module (server/jobs/lease.ts). scenario_runs called it `status`.
-- The partial unique index on queued and running runs follows the column (PostgreSQL keeps it by column, not name).
ALTER TABLE "scenario_runs" RENAME COLUMN "status" TO "state";
