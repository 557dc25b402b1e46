import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a report link stays valid. */
export const REPORT_LINK_TTL_SECONDS = 7 * 24 * 3600;

/** HMAC-signed, expiring links to reports: they open without a bearer token, and a changed byte or a past date fails. */
export class LinkSigner {
  constructor(private readonly secret: string) {}

  private mac(purpose: string, id: string, expires: number): string {
    return createHmac('sha256', this.secret).update(`${purpose}\n${id}\n${expires}`).digest('base64url');
  }

  /** Query string `exp=...&sig=...` for the report `id`. */
  sign(purpose: string, id: string, now = Date.now(), ttlSeconds = REPORT_LINK_TTL_SECONDS): { exp: number; sig: string } {
    const exp = Math.floor(now / 1000) + ttlSeconds;
    return { exp, sig: this.mac(purpose, id, exp) };
  }

  /** 'ok', 'expired' or 'invalid'. */
  verify(purpose: string, id: string, exp: unknown, sig: unknown, now = Date.now()): 'ok' | 'expired' | 'invalid' {
    const expires = Number(exp);
    if (!Number.isInteger(expires) || typeof sig !== 'string' || sig.length === 0) return 'invalid';
    const expected = Buffer.from(this.mac(purpose, id, expires));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return expires * 1000 < now ? 'expired' : 'ok';
  }
}
