import { sensitiveFields } from '../analysis/sensitive-fields';
import { analyzeSupabase, describeRequest, projectLabel, supabaseHeaders, type SupabaseProject } from '../analysis/supabase';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Severity, type SiteBeforeProbes } from '../types';

const ID = 'supabase-rpc-exposed';
/** The site's own function names only (no guessing): one GET each, at most this many per project. */
const MAX_CALLS = 8;
/**
 * PostgREST runs GET /rest/v1/rpc/<fn> in a read-only transaction, so a function that writes fails instead of
 * writing. Names that say they act (delete_user, send_invite) are still not called: a function may reach outside the
 * database (http or pg_net extensions), and its name is reason enough to list it without calling it.
 */
const ACTS = /^(?:add|apply|approve|archive|assign|ban|block|book|bulk|cancel|change|charge|claim|clear|confirm|consume|copy|create|deactivate|decrement|delete|disable|do|drop|edit|enable|execute|follow|generate|grant|handle|import|increment|insert|invite|issue|like|log|mark|merge|migrate|modify|move|notify|pay|perform|populate|process|publish|purge|record|redeem|refund|register|reject|remove|reset|restore|revert|revoke|rotate|run|save|seed|send|set|signup|sign_up|store|submit|sync|toggle|track|transfer|trigger|truncate|unblock|unfollow|unpublish|update|upload|upsert|use|verify|vote|write)(?:_|$|[A-Z])/i;
/** Credential columns make a leak critical; other personal columns make it high. */
const CREDENTIAL = /pass|pwd|secret|token|jwt|key|otp|code|hash/i;

interface CallPlan {
  project: SupabaseProject;
  name: string;
  probe: ProbeRequest;
}

function plan(site: SiteBeforeProbes): CallPlan[] {
  const info = analyzeSupabase(site);
  const names = info.rpcs.map((r) => r.name).filter((name) => !ACTS.test(name));
  return info.projects
    .filter((p) => p.keys.length > 0)
    .flatMap((project) =>
      names.slice(0, MAX_CALLS).map((name) => ({
        project,
        name,
        probe: {
          key: `${ID}:call:${projectLabel(project)}:${name}`,
          method: 'GET' as const,
          url: `${project.url}/rest/v1/rpc/${encodeURIComponent(name)}`,
          headers: supabaseHeaders(project.keys[0]!),
        },
      })),
    );
}

/** What a function call returned, as rows and their column names; values are never kept. */
export function describeReturn(exchange: Exchange | undefined): { rows: number; columns: string[] } | undefined {
  if (!exchange || exchange.error || exchange.status !== 200) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(exchange.body);
  } catch {
    return undefined;
  }
  const rows = (Array.isArray(value) ? value : [value]).filter((row): row is Record<string, unknown> => row !== null && typeof row === 'object' && !Array.isArray(row));
  if (rows.length === 0) return undefined;
  const columns = [...new Set(rows.slice(0, 20).flatMap((row) => Object.keys(row)))].slice(0, 200);
  return columns.length > 0 ? { rows: rows.length, columns } : undefined;
}

/** Rows with credentials critical, with personal fields high, other rows low. */
export function rateReturn(columns: readonly string[]): Severity {
  const sensitive = sensitiveFields(columns);
  if (sensitive.some((name) => CREDENTIAL.test(name))) return 'critical';
  return sensitive.length > 0 ? 'high' : 'low';
}

function callFinding(call: CallPlan, result: { rows: number; columns: string[] }): FindingDraft {
  const sensitive = sensitiveFields(result.columns);
  const shown = result.columns.slice(0, 30).join(', ') + (result.columns.length > 30 ? ', …' : '');
  const rows = `${result.rows} row${result.rows === 1 ? '' : 's'}`;
  return {
    url: `${call.project.url}/rest/v1/rpc/${call.name}`,
    title: sensitive.length > 0 ? `Supabase function "${call.name}" returns private data to anyone` : `Supabase function "${call.name}" returns data to anyone`,
    severity: rateReturn(result.columns),
    detail:
      `Called with the site's public key and no arguments, database function "${call.name}" returned ${rows}.` +
      (sensitive.length > 0 ? ` Sensitive fields: ${sensitive.slice(0, 12).join(', ')}. A SECURITY DEFINER function skips row level security.` : ''),
    evidence: {
      request: describeRequest(call.probe.method, call.probe.url, call.probe.headers ?? {}),
      response: `HTTP 200\n${rows}; fields (values not kept): ${shown}`,
      match: `fields: ${shown}`,
    },
    key: `${projectLabel(call.project)}/rpc/${call.name}`,
  };
}

export const supabaseRpcExposed = defineCheck({
  id: ID,
  family: 'supabase',
  title: 'Supabase database functions callable from the browser',
  severity: 'info',
  confidence: 'medium',
  cwe: 200,
  owasp: 'A01',
  description:
    'Lists the Postgres functions the site calls through supabase.rpc() or /rest/v1/rpc/, then calls the ones whose names do not say they change something with GET and the public key (PostgREST runs GET calls in a read-only transaction) and reports those that return user records or credentials. A SECURITY DEFINER function runs with its owner\'s rights and skips row level security.',
  remediation:
    'For each function that returned data: make it SECURITY INVOKER (so row level security applies), or check auth.uid() inside a SECURITY DEFINER function and return only the caller\'s rows; set search_path; REVOKE EXECUTE ON FUNCTION … FROM anon, public for functions only signed-in users or the server need (Security Advisor lints 0011 and 0028).',
  references: [
    'https://supabase.com/docs/guides/database/functions#security-definer-vs-invoker',
    'https://supabase.com/docs/guides/database/database-linter?lint=0028_anon_security_definer_function_executable',
    'https://docs.postgrest.org/en/stable/references/api/functions.html',
  ],
  probes(site) {
    return plan(site).map((call) => call.probe);
  },
  appliesTo(site) {
    return analyzeSupabase(site).projects.length > 0;
  },
  run(site) {
    const info = analyzeSupabase(site);
    const project = info.projects[0];
    if (!project || info.rpcs.length === 0) return [];
    const names = info.rpcs.map((r) => r.name);
    const findings: FindingDraft[] = [
      {
        url: `${project.url}/rest/v1/rpc/`,
        detail: `The site calls ${names.length} database function${names.length === 1 ? '' : 's'}: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', …' : ''}. Each one can be called by anyone with the public key.`,
        evidence: {
          response: info.rpcs.slice(0, 30).map((r) => `${r.name} (seen in ${r.origin === 'traffic' ? 'captured requests' : 'the bundle'})`).join('\n'),
          match: names.slice(0, 10).map((n) => `.rpc('${n}')`).join(' '),
        },
        key: project.ref ?? new URL(project.url).host,
      },
    ];
    for (const call of plan(site)) {
      const result = describeReturn(site.probes.get(call.probe.key));
      if (result) findings.push(callFinding(call, result));
    }
    return findings;
  },
});
