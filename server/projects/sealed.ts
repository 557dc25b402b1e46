import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * Seals short secrets (a project's test credentials) with AES-256-GCM under a key derived from the install's link
 * secret, so a database dump alone does not reveal them.
 */
export class Sealer {
  private readonly key: Buffer;
  /** Recently opened values: listing projects opens the same ones on every request. */
  private readonly opened = new LRUCache<string, string>({ max: 5_000 });

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'vibeeval', 'project credentials v1', 32));
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url')}`;
  }

  open(sealed: string): string {
    const cached = this.opened.get(sealed);
    if (cached !== undefined) return cached;
    const plain = this.decrypt(sealed);
    this.opened.set(sealed, plain);
    return plain;
  }

  private decrypt(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('unknown sealed format');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
