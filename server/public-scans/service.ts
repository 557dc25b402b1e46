import { count, eq, inArray } from 'drizzle-orm';
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { Db } from '../db';
import { publicScans } from '../db/schema';
import { takePoint } from '../rate-limit';
import { HttpError } from '../http-errors';

export interface PublicScanLimits {
  perIp: number;
  perEmail: number;
  windowSeconds: number;
}

/** Public quick scans waiting or running at once; beyond this new requests are turned away for a while. */
export const MAX_PENDING_PUBLIC_SCANS = 200;

/**
 * Accepts quick scans from the public site: counted per client IP and per email address in PostgreSQL (shared by
 * every server instance of a team), capped while too many are pending, then stored as queued.
 */
export class PublicScanService {
  readonly #ip: RateLimiterPostgres;
  readonly #email: RateLimiterPostgres;

  constructor(
    private readonly db: Db,
    pool: pg.Pool,
    limits: PublicScanLimits,
  ) {
    const base = { storeClient: pool, storeType: 'pool', tableName: 'rate_limits', tableCreated: true, duration: limits.windowSeconds };
    this.#ip = new RateLimiterPostgres({ ...base, keyPrefix: 'public_scan_ip', points: limits.perIp });
    this.#email = new RateLimiterPostgres({ ...base, keyPrefix: 'public_scan_email', points: limits.perEmail });
  }

  /** Counts the request against both limits and stores the scan; throws HttpError when refused. */
  async request(url: string, email: string, ip: string): Promise<{ id: string }> {
    // The IP first: a flood of different addresses from one client stops there, before touching the per-email counters.
    await consume(this.#ip, ip);
    await consume(this.#email, email.toLowerCase());
    const [pending] = await this.db
      .select({ n: count() })
      .from(publicScans)
      .where(inArray(publicScans.state, ['queued', 'running']));
    if ((pending?.n ?? 0) >= MAX_PENDING_PUBLIC_SCANS) {
      throw new HttpError(503, 'Too many scans are waiting right now. Please try again in a few minutes.', 60);
    }
    const [row] = await this.db.insert(publicScans).values({ url, email }).returning({ id: publicScans.id });
    return row!;
  }

  /** The stored scan, for the signed report link. */
  async get(id: string) {
    const [row] = await this.db.select().from(publicScans).where(eq(publicScans.id, id));
    return row;
  }
}

async function consume(limiter: RateLimiterPostgres, key: string) {
  const retryAfter = await takePoint(limiter, key);
  if (retryAfter !== null) throw new HttpError(429, 'Too many scan requests. Please try again later.', retryAfter);
}
