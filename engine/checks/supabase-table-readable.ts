import { header } from '../http/headers';
import { describeSightings, firstRecord, rateExposure } from '../analysis/data-exposure';
import { analyzeSupabase, describeRequest, discoveryProbes, unanswered, projectLabel, supabaseHeaders, type SupabaseProject } from '../analysis/supabase';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';

const ID = 'supabase-table-readable';
/** Two probes per table: at most 36 requests to the project, whatever the bundle names. */
const MAX_TABLES = 18;

interface TablePlan {
  project: SupabaseProject;
  key: string;
  table: string;
  origin: string;
  count: ProbeRequest;
  row: ProbeRequest;
}

/** The tables to probe, the site's own names first, then the wordlist; the same for planning and judging. */
function plan(site: SiteBeforeProbes): TablePlan[] {
  const info = analyzeSupabase(site);
  const plans: TablePlan[] = [];
  const projects = info.projects.filter((p) => p.keys.length > 0);
  for (const project of projects) {
    const key = project.keys[0]!;
    const label = projectLabel(project);
    // Several projects (rare) share the budget.
    const budget = Math.max(4, Math.floor(MAX_TABLES / projects.length));
    for (const { name, origin } of info.tables.slice(0, budget)) {
      if (plans.length >= MAX_TABLES) break;
      const base = `${project.url}/rest/v1/${encodeURIComponent(name)}`;
      plans.push({
        project,
        key,
        table: name,
        origin,
        // HEAD with an exact count: the row total in Content-Range, no row data transferred.
        count: { key: `${ID}:count:${label}:${name}`, method: 'HEAD', url: `${base}?select=*`, headers: supabaseHeaders(key, { Prefer: 'count=exact' }) },
        // One row, only to learn the column names; values are dropped on reading.
        row: { key: `${ID}:row:${label}:${name}`, method: 'GET', url: `${base}?select=*&limit=1`, headers: supabaseHeaders(key) },
      });
    }
  }
  return plans;
}

/** Row total from a PostgREST Content-Range header ("0-0/57", "*\/57", "*\/0"); undefined when unknown. */
export function rowTotal(contentRange: string | undefined): number | undefined {
  const m = /\/(\d+)\s*$/.exec(contentRange ?? '');
  return m ? Number(m[1]) : undefined;
}

/** The first row of a PostgREST JSON array answer, parsed; callers rate it and drop it. */
export function firstRow(exchange: Exchange | undefined): Record<string, unknown> | undefined {
  if (!exchange || exchange.error || exchange.status < 200 || exchange.status > 299) return undefined;
  try {
    const rows: unknown = JSON.parse(exchange.body);
    return Array.isArray(rows) ? firstRecord(rows) : undefined;
  } catch {
    return undefined;
  }
}

/** The one row read of each readable table, with its table name: what later probes may use as arguments. */
export function readRows(site: Site): Array<{ table: string; projectUrl: string; row: Record<string, unknown> }> {
  return plan(site).flatMap((p) => {
    const row = firstRow(site.probes.get(p.row.key));
    return row ? [{ table: p.table, projectUrl: p.project.url, row }] : [];
  });
}

const ok = (exchange: Exchange | undefined): exchange is Exchange => !!exchange && !exchange.error && (exchange.status === 200 || exchange.status === 206);

export const supabaseTableReadable = defineCheck({
  id: ID,
  family: 'supabase',
  title: 'Supabase table readable with the public key',
  severity: 'high',
  confidence: 'high',
  cwe: 862,
  owasp: 'A01',
  description:
    'Uses the project URL and public (anon or publishable) key found in the site to ask PostgREST, read-only, how many rows of each table the key can see (HEAD with Prefer: count=exact) and reads one row, rated by what its values and column names hold (emails, phones, addresses, credentials, payment data; catalogue content is low) and then dropped. Table names come from the bundle (.from("…")), captured traffic and a short wordlist. This is the CVE-2025-48757 pattern: tables without row level security.',
  remediation:
    'Enable row level security on every table in exposed schemas (ALTER TABLE … ENABLE ROW LEVEL SECURITY) and add policies that limit reads to the rows a signed-in user owns, e.g. USING (auth.uid() = user_id). Move columns no client needs (password hashes, tokens, internal notes) to a table the API cannot reach, and run the Supabase Security Advisor (lints 0013 and 0023).',
  references: [
    'https://supabase.com/docs/guides/database/postgres/row-level-security',
    'https://supabase.com/docs/guides/database/database-linter?lint=0013_rls_disabled_in_public',
    'https://nvd.nist.gov/vuln/detail/CVE-2025-48757',
    'https://docs.postgrest.org/en/stable/references/api/pagination_count.html',
  ],
  probes(site) {
    return [...discoveryProbes(site), ...plan(site).flatMap((p) => [p.count, p.row])];
  },
  // Projects confirmed by their GoTrue answer (a custom domain the bundle never names as Supabase) are probed next.
  followUpProbes(site) {
    return unanswered(
      site,
      plan(site).flatMap((p) => [p.count, p.row]),
    );
  },
  appliesTo(site) {
    return analyzeSupabase(site).projects.some((p) => p.keys.length > 0);
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const p of plan(site)) {
      const count = site.probes.get(p.count.key);
      const row = site.probes.get(p.row.key);
      const total = ok(count) ? rowTotal(header(count.headers, 'content-range')) : undefined;
      const record = ok(row) ? firstRow(row) : undefined;
      const columns = Object.keys(record ?? {}).slice(0, 200);
      // Readable means rows came back: a positive count, or a row. RLS-protected tables answer 200 with */0 and [].
      if (!(total !== undefined && total > 0) && columns.length === 0) continue;
      // Rated by what the one row holds, with its column names; the values are dropped here.
      const rating = rateExposure({ columns, row: record, subject: p.table });
      const seen = describeSightings(rating);
      const rows = total !== undefined ? `${total.toLocaleString('en-US')} row${total === 1 ? '' : 's'}` : 'rows (count not returned)';
      const where = `${p.project.url}/rest/v1/${p.table}`;
      const shown = columns.slice(0, 40).join(', ') + (columns.length > 40 ? ', …' : '');
      findings.push({
        url: where,
        title: `Supabase table "${p.table}" readable with the public key`,
        severity: rating.severity,
        detail:
          `Anyone with the site's public key can read table "${p.table}": ${rows}. ${rating.reason}` +
          (p.origin === 'wordlist' ? ' (The table name was guessed, not taken from the site.)' : ''),
        evidence: {
          request: describeRequest(p.count.method, p.count.url, p.count.headers ?? {}),
          response: [
            count ? `HTTP ${count.status}` : 'no answer to the count request',
            count && header(count.headers, 'content-range') ? `Content-Range: ${header(count.headers, 'content-range')}` : undefined,
            columns.length > 0 ? `Columns of the first row (${p.row.method} ${p.row.url}; values not kept): ${shown}` : undefined,
            seen.length > 0 ? `Seen in that row (masked): ${seen.join('; ')}` : undefined,
          ]
            .filter(Boolean)
            .join('\n'),
          match: count && header(count.headers, 'content-range') ? `Content-Range: ${header(count.headers, 'content-range')}` : `columns: ${shown}`,
        },
        key: `${projectLabel(p.project)}/${p.table}`,
      });
    }
    return findings;
  },
});
