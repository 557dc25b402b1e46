import { describeSightings, firstRecord, rateExposure, type ExposureRating } from '../analysis/data-exposure';
import { chooseArguments, hintedParameters, idsInRows, idsInTexts, type KnownId } from '../analysis/function-arguments';
import { analyzeSupabase, describeRequest, discoveryProbes, unanswered, projectLabel, supabaseHeaders, type SupabaseProject } from '../analysis/supabase';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';
import { readRows } from './supabase-table-readable';

const ID = 'supabase-rpc-exposed';
/** The site's own function names only (no guessing): one GET each, at most this many per project. */
const MAX_CALLS = 8;
/**
 * PostgREST runs GET /rest/v1/rpc/<fn> in a read-only transaction, so a function that writes fails instead of
 * writing. Names that say they act (delete_user, send_invite) are still not called: a function may reach outside the
 * database (http or pg_net extensions), and its name is reason enough to list it without calling it.
 */
const ACTS =
  /^(?:add|apply|approve|archive|assign|ban|block|book|bulk|cancel|change|charge|claim|clear|confirm|consume|copy|create|deactivate|decrement|delete|disable|do|drop|edit|enable|execute|follow|generate|grant|handle|import|increment|insert|invite|issue|like|log|mark|merge|migrate|modify|move|notify|pay|perform|populate|process|publish|purge|record|redeem|refund|register|reject|remove|reset|restore|revert|revoke|rotate|run|save|seed|send|set|signup|sign_up|store|submit|sync|toggle|track|transfer|trigger|truncate|unblock|unfollow|unpublish|update|upload|upsert|use|verify|vote|write)(?:_|$|[A-Z])/i;

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

/** What a function call returned: how many rows, their column names and the first row's rating; values are dropped. */
export function describeReturn(exchange: Exchange | undefined, name = ''): { rows: number; columns: string[]; rating: ExposureRating } | undefined {
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
  if (columns.length === 0) return undefined;
  return { rows: rows.length, columns, rating: rateExposure({ columns, row: firstRecord(rows), subject: name, what: 'the first row returned' }) };
}

/** A second call with ids the scan already read, for a function whose bare call PostgREST refused naming its parameters. */
interface ArgumentCall {
  call: CallPlan;
  args: Array<{ param: string; id: KnownId }>;
  probe: ProbeRequest;
}

/** Ids the scan has read: rows of readable tables first, then ids in the site's own requests, pages and bundles. */
function knownIds(site: Site): KnownId[] {
  const urls = [...site.rendering.requests.map((r) => r.url), ...site.pages.map((p) => p.url), ...site.rendering.routes];
  const bundles = site.assets.filter((a) => a.kind === 'script').map((a) => a.exchange.body);
  return [...idsInRows(readRows(site)), ...idsInTexts(urls), ...idsInTexts(bundles, 200_000)];
}

/** Only ids go in, and only ids the scan read: the function still runs in PostgREST's read-only transaction. */
function argumentCalls(site: Site): ArgumentCall[] {
  const calls: ArgumentCall[] = [];
  let known: KnownId[] | undefined;
  for (const call of plan(site)) {
    const answer = site.probes.get(call.probe.key);
    if (!answer || answer.error || answer.status !== 404) continue;
    const params = hintedParameters(answer.body, call.name);
    if (!params) continue;
    known ??= knownIds(site);
    const args = chooseArguments(call.name, params, known);
    if (!args) continue;
    const query = args.map(({ param, id }) => `${encodeURIComponent(param)}=${encodeURIComponent(id.value)}`).join('&');
    calls.push({ call, args, probe: { ...call.probe, key: `${ID}:args:${projectLabel(call.project)}:${call.name}`, url: `${call.probe.url}?${query}` } });
  }
  return calls;
}

/** An id as evidence shows it: enough to recognise, not the whole value. */
const maskId = (value: string): string => (value.length > 8 ? `${value.slice(0, 8)}…` : value);

function callFinding(call: CallPlan, result: { rows: number; columns: string[]; rating: ExposureRating }, second?: ArgumentCall): FindingDraft {
  const { rating } = result;
  const shown = result.columns.slice(0, 30).join(', ') + (result.columns.length > 30 ? ', …' : '');
  const seen = describeSightings(rating);
  const rows = `${result.rows} row${result.rows === 1 ? '' : 's'}`;
  const how = second
    ? `with ${second.args.map(({ param, id }) => `${param} set to ${id.table ? `the ${id.column} of a row read from table "${id.table}"` : `an id seen in the site (${id.column})`}`).join(' and ')}`
    : 'and no arguments';
  const probe = second?.probe ?? call.probe;
  const url = second ? second.args.reduce((u, { id }) => u.split(encodeURIComponent(id.value)).join(maskId(id.value)), probe.url) : probe.url;
  return {
    url: `${call.project.url}/rest/v1/rpc/${call.name}`,
    title: rating.severity === 'low' ? `Supabase function "${call.name}" returns data to anyone` : `Supabase function "${call.name}" returns private data to anyone`,
    severity: rating.severity,
    detail:
      `Called with the site's public key ${how}, database function "${call.name}" returned ${rows}. ${rating.reason}` +
      (rating.severity !== 'low' ? ' A SECURITY DEFINER function skips row level security.' : ''),
    evidence: {
      request: describeRequest(probe.method, url, probe.headers ?? {}),
      response: [`HTTP 200`, `${rows}; fields (values not kept): ${shown}`, seen.length > 0 ? `Seen in the first row (masked): ${seen.join('; ')}` : undefined]
        .filter(Boolean)
        .join('\n'),
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
    "Lists the Postgres functions the site calls through supabase.rpc() or /rest/v1/rpc/, then calls the ones whose names do not say they change something with GET and the public key (PostgREST runs GET calls in a read-only transaction); a function that takes an id, named in PostgREST's hint, is called again with an id the scan already read. What comes back is rated by its first row's values, like a table. A SECURITY DEFINER function runs with its owner's rights and skips row level security.",
  remediation:
    "For each function that returned data: make it SECURITY INVOKER (so row level security applies), or check auth.uid() inside a SECURITY DEFINER function and return only the caller's rows; set search_path; REVOKE EXECUTE ON FUNCTION … FROM anon, public for functions only signed-in users or the server need (Security Advisor lints 0011 and 0028).",
  references: [
    'https://supabase.com/docs/guides/database/functions#security-definer-vs-invoker',
    'https://supabase.com/docs/guides/database/database-linter?lint=0028_anon_security_definer_function_executable',
    'https://docs.postgrest.org/en/stable/references/api/functions.html',
  ],
  probes(site) {
    return [...discoveryProbes(site), ...plan(site).map((call) => call.probe)];
  },
  // Calls to projects confirmed by their GoTrue answer, and second calls with the ids PostgREST's hints ask for.
  followUpProbes(site) {
    return [
      ...unanswered(
        site,
        plan(site).map((call) => call.probe),
      ),
      ...argumentCalls(site).map((second) => second.probe),
    ];
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
          response: info.rpcs
            .slice(0, 30)
            .map((r) => `${r.name} (seen in ${r.origin === 'traffic' ? 'captured requests' : 'the bundle'})`)
            .join('\n'),
          match: names
            .slice(0, 10)
            .map((n) => `.rpc('${n}')`)
            .join(' '),
        },
        key: project.ref ?? new URL(project.url).host,
      },
    ];
    const seconds = new Map(argumentCalls(site).map((second) => [second.call.probe.key, second]));
    for (const call of plan(site)) {
      const result = describeReturn(site.probes.get(call.probe.key), call.name);
      const second = seconds.get(call.probe.key);
      const again = second ? describeReturn(site.probes.get(second.probe.key), call.name) : undefined;
      if (result) findings.push(callFinding(call, result));
      else if (second && again) findings.push(callFinding(call, again, second));
    }
    return findings;
  },
});
