-- An address counts as proven only once its owner showed they read its mail (a confirmation or recovery link
-- followed) or a provider vouched for it (Google): sign-up no longer marks it confirmed as the account is made.
-- Accounts made by sign-up before this had their address marked confirmed unproven; they go back to unproven
-- unless a recovery link was followed since or a provider vouched for them. A verified provider identity arriving
-- for an unproven address starts a new account and disables the old one (`disabled_at`): see provider-sign-in.ts.
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" SET "email_confirmed_at" = NULL
WHERE "email_confirmed_at" IS NOT NULL
  AND NOT ('google' = ANY("providers"))
  AND NOT EXISTS (
    SELECT 1 FROM "one_time_tokens" t WHERE t."user_id" = "users"."id" AND t."kind" = 'recovery' AND t."used_at" IS NOT NULL
  );
