CREATE TABLE "billing_customers" (
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "billing_customers_pkey" PRIMARY KEY("user_id","provider")
);--> statement-breakpoint
CREATE TABLE "billing_plans" (
	"price_id" text PRIMARY KEY NOT NULL,
	"product_id" text NOT NULL,
	"product_name" text NOT NULL,
	"product_description" text,
	"unit_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"interval" text,
	"provider" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"status" text NOT NULL,
	"price_id" text NOT NULL,
	"current_period_start" timestamp with time zone NOT NULL,
	"current_period_end" timestamp with time zone NOT NULL,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"pending_price_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "user_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email_notifications" boolean DEFAULT true NOT NULL,
	"webhook_notifications" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "billing_customers_customer_idx" ON "billing_customers" USING btree ("provider","customer_id");--> statement-breakpoint
CREATE INDEX "subscriptions_user_idx" ON "subscriptions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "subscriptions_period_end_idx" ON "subscriptions" USING btree ("current_period_end") WHERE status = 'active';--> statement-breakpoint
INSERT INTO "billing_plans" ("price_id", "product_id", "product_name", "product_description", "unit_amount", "currency", "interval", "provider", "position") VALUES
	('price_local_basic_month', 'prod_local_basic', 'Basic', NULL, 700, 'usd', 'month', 'local', 1),
	('price_local_pro_month', 'prod_local_pro', 'Pro', NULL, 1500, 'usd', 'month', 'local', 2),
	('price_local_enterprise_month', 'prod_local_enterprise', 'Enterprise', NULL, 4900, 'usd', 'month', 'local', 3)
ON CONFLICT ("price_id") DO NOTHING;
