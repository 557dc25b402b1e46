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
