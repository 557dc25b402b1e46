-- A link mailed when an account made with an unproven address is set aside (server/auth/adoption.ts): it moves that
-- account's records into the Google account that arrived for the address. The token is bound to both accounts;
-- user_id is the set-aside one, target_user_id the one that receives, and either's deletion ends the link.
ALTER TABLE "one_time_tokens" ADD COLUMN "target_user_id" uuid;--> statement-breakpoint
ALTER TABLE "one_time_tokens" ADD CONSTRAINT "one_time_tokens_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
