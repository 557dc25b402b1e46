import { createHash } from 'node:crypto';

/**
 * A secret as it may appear in any output: the first 6 and last 4 characters of long values, less of short ones,
 * so users can recognise the key without the report becoming a leak of its own.
 */
export function maskSecret(secret: string): string {
  const n = secret.length;
  if (n <= 8) return '*'.repeat(n);
  if (n <= 16) return `${secret.slice(0, 2)}…${secret.slice(-2)}`;
  if (n <= 24) return `${secret.slice(0, 4)}…${secret.slice(-2)}`;
  return `${secret.slice(0, 6)}…${secret.slice(-4)}`;
}

/** A stable, non-reversible id for a secret (FindingDraft.key): the first 16 hex digits of its SHA-256. */
export function secretId(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

/** Replaces every occurrence of each secret in text by its mask (longest first, so nested values stay hidden). */
export function maskAll(text: string, secrets: Iterable<string>): string {
  const list = [...new Set(secrets)].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of list) if (out.includes(secret)) out = out.split(secret).join(maskSecret(secret));
  return out;
}
