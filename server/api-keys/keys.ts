import { createHash, randomInt } from 'node:crypto';
import { API_KEY_PATTERN, API_KEY_PREFIX, API_KEY_RANDOM_LENGTH } from '../../common/api-keys';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A new key: the prefix and 26 characters drawn uniformly from the CSPRNG (about 155 bits). */
export function generateApiKey(): string {
  let random = '';
  for (let i = 0; i < API_KEY_RANDOM_LENGTH; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  return API_KEY_PREFIX + random;
}

/**
 * What the database keeps of a key: its SHA-256. A key carries ~155 random bits, so a fast hash is enough (no
 * dictionary to guess from), and the lookup stays one indexed equality.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The caller a valid key acts for: the member who made it, in the workspace it was made in. */
export interface ApiKeyCaller {
  userId: string;
  workspaceId: string;
  keyId: string;
}

/**
 * The key in an `Authorization: Bearer vb_live_…` header, or null when the header holds none (absent, another
 * scheme, a token of another shape).
 */
export function apiKeyFromHeader(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const key = match?.[1];
  return key && API_KEY_PATTERN.test(key) ? key : null;
}
