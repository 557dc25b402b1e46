-- Webhooks (server/webhooks/): what a delivery's body is. 'standard' is the signed Standard Webhooks JSON every
-- webhook had until now; 'slack', 'discord' and 'teams' post a chat message in that service's incoming-webhook
-- format (server/webhooks/formats/), unsigned, through the same deliverer.
ALTER TABLE "webhooks" ADD COLUMN "format" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_format_check" CHECK ("format" IN ('standard', 'slack', 'discord', 'teams'));
