import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { DOMAIN_TEXTS, hostCoveredBy, MAX_DOMAINS_PER_WORKSPACE, TXT_PREFIX, verificationUrl, type Domain } from '../../common/domains';
import type { PageQuery } from '../../common/pagination';
import type { Db } from '../db';
import { verifiedDomains } from '../db/schema';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid } from '../projects/service';
import { verifyDomain, type VerifierOptions } from './verify';
import { HttpError } from '../http-errors';

type DomainRow = typeof verifiedDomains.$inferSelect;

const sortAt = sql<string>`${sql.raw(cursorTimestampSql('"verified_domains"."created_at"'))}`;

function toDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    domain: row.domain,
    state: row.verifiedAt ? 'verified' : row.checkedAt ? 'failed' : 'pending',
    token: row.token,
    http_url: verificationUrl(row.domain),
    txt_record: `${TXT_PREFIX}${row.token}`,
    verified_at: row.verifiedAt?.toISOString() ?? null,
    checked_at: row.checkedAt?.toISOString() ?? null,
    last_error: row.lastError,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A workspace's domains and their proofs. Every query is filtered by the workspace: another workspace's domain does
 * not exist (404), and two workspaces listing the same domain each prove it with their own token.
 */
export class DomainService {
  constructor(
    private readonly db: Db,
    private readonly verifier: VerifierOptions,
  ) {}

  /** Lists a domain with a new token, not yet verified. */
  async create(workspaceId: string, userId: string, domain: string): Promise<Domain> {
    const [{ value: existing } = { value: 0 }] = await this.db.select({ value: count() }).from(verifiedDomains).where(eq(verifiedDomains.workspaceId, workspaceId));
    if (existing >= MAX_DOMAINS_PER_WORKSPACE) throw new HttpError(409, DOMAIN_TEXTS.tooMany);
    // 128 random bits: nobody can guess the value another workspace must publish.
    const token = randomBytes(16).toString('hex');
    const [row] = await this.db.insert(verifiedDomains).values({ workspaceId, userId, domain, token }).onConflictDoNothing().returning();
    if (!row) throw new HttpError(409, DOMAIN_TEXTS.duplicate);
    return toDomain(row);
  }

  /** One page of the workspace's domains, newest first. */
  async list(workspaceId: string, { limit, cursor }: PageQuery): Promise<{ items: Domain[]; next: string | null }> {
    const after = decodeCursor(cursor);
    const conditions: SQL[] = [eq(verifiedDomains.workspaceId, workspaceId)];
    if (after) conditions.push(sql`(${verifiedDomains.createdAt}, ${verifiedDomains.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`);
    const rows = await this.db
      .select({ row: verifiedDomains, sortAt })
      .from(verifiedDomains)
      .where(and(...conditions))
      .orderBy(desc(verifiedDomains.createdAt), desc(verifiedDomains.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, (entry) => ({ at: entry.sortAt, id: entry.row.id }));
    return { items: page.items.map(({ row }) => toDomain(row)), next: page.next };
  }

  /**
   * Checks both proofs now. The last check decides: a domain whose token was taken down is no longer verified, so a
   * domain that changed hands stops covering active scans at its next check.
   */
  async verify(workspaceId: string, id: string): Promise<Domain> {
    const row = await this.row(workspaceId, id);
    const outcome = await verifyDomain(row.domain, row.token, this.verifier);
    const [updated] = await this.db
      .update(verifiedDomains)
      .set(
        outcome.verified
          ? { verifiedAt: sql`coalesce(${verifiedDomains.verifiedAt}, now())`, checkedAt: sql`now()`, lastError: null }
          : { verifiedAt: null, checkedAt: sql`now()`, lastError: outcome.reason },
      )
      .where(and(eq(verifiedDomains.id, row.id), eq(verifiedDomains.workspaceId, workspaceId)))
      .returning();
    if (!updated) throw new HttpError(404, DOMAIN_TEXTS.notFound);
    return toDomain(updated);
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.row(workspaceId, id);
    await this.db.delete(verifiedDomains).where(and(eq(verifiedDomains.id, id), eq(verifiedDomains.workspaceId, workspaceId)));
  }

  /** The workspace's verified domain covering this host (itself or a parent), or null. */
  async covering(workspaceId: string, host: string): Promise<string | null> {
    return (await verifiedDomainsOf(this.db, workspaceId)).find((domain) => hostCoveredBy(host, domain)) ?? null;
  }

  private async row(workspaceId: string, id: string): Promise<DomainRow> {
    if (!isUuid(id)) throw new HttpError(404, DOMAIN_TEXTS.notFound);
    const [row] = await this.db
      .select()
      .from(verifiedDomains)
      .where(and(eq(verifiedDomains.id, id), eq(verifiedDomains.workspaceId, workspaceId)));
    if (!row) throw new HttpError(404, DOMAIN_TEXTS.notFound);
    return row;
  }
}

/** The workspace's verified domains (the active-mode gate's question), through any of the server's database handles. */
export async function verifiedDomainsOf(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: verifiedDomains.domain })
    .from(verifiedDomains)
    .where(and(eq(verifiedDomains.workspaceId, workspaceId), isNotNull(verifiedDomains.verifiedAt)));
  return rows.map(({ domain }) => domain);
}
