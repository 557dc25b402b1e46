import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const secretsSchema = z.object({
  /** HS256 key for access tokens issued by this install. */
  jwtSecret: z.string().min(32),
  /** Password of the embedded PostgreSQL superuser. */
  pgPassword: z.string().min(16),
  /** HMAC key for signed links (reports, previews). */
  linkSecret: z.string().min(32),
});
export type Secrets = z.infer<typeof secretsSchema>;

const fresh = (): Secrets => ({
  jwtSecret: randomBytes(48).toString('base64url'),
  pgPassword: randomBytes(24).toString('base64url'),
  linkSecret: randomBytes(48).toString('base64url'),
});

/**
 * Loads the per-install secrets from `<data dir>/secrets.json`, creating it on first start. The file is
 * kept at 0600 so only the user who runs vibeeval can read it.
 */
export async function loadSecrets(dataDir: string): Promise<Secrets> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, 'secrets.json');
  let raw: string | undefined;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (raw === undefined) {
    const secrets = fresh();
    // 'wx' fails if another process created the file meanwhile; then read theirs.
    try {
      await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
      return secrets;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      raw = await readFile(file, 'utf8');
    }
  }
  await chmod(file, 0o600);
  const parsed = secretsSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`${file} is damaged: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** What runs a query on the shared database (a pg.Pool). */
interface Queryable {
  query<R extends object>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Team mode (DATABASE_URL): the install's jwt and link secrets come from the database, so a token issued or a link
 * signed by one server instance holds on every other, and every worker opens what any instance sealed. The first
 * instance to start stores its own (an existing install keeps its tokens and links; concurrent starts agree through
 * the primary key), the others take those. The embedded database's password stays in the file.
 */
export async function shareInstallSecrets(database: Queryable, own: Secrets): Promise<Secrets> {
  await database.query(`INSERT INTO install_secrets (name, value) VALUES ('jwt', $1), ('link', $2) ON CONFLICT (name) DO NOTHING`, [own.jwtSecret, own.linkSecret]);
  const { rows } = await database.query<{ name: string; value: string }>(`SELECT name, value FROM install_secrets WHERE name IN ('jwt', 'link')`);
  const stored = new Map(rows.map((row) => [row.name, row.value]));
  const shared = secretsSchema.safeParse({ jwtSecret: stored.get('jwt'), linkSecret: stored.get('link'), pgPassword: own.pgPassword });
  if (!shared.success) throw new Error(`the database's install secrets are damaged: ${shared.error.issues[0]?.message ?? 'invalid'}`);
  return shared.data;
}
