-- The install's signing keys, shared by every server and worker on one database (team mode): a token issued or a
-- link signed by one instance holds on the others, and sealed project secrets open in every worker. The first
-- instance writes its own keys (an existing install keeps its tokens and links); the others read them. The
-- embedded database's password is not here: it is needed before the database is reached.
CREATE TABLE "install_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "install_secrets_name_check" CHECK ("name" IN ('jwt', 'link'))
);
