// The data reads a signed-in scan repeats as each test account: the tables and views, buckets and database functions
// the anonymous Supabase checks read, with the same bounds (a few rows, one page of names) and read-only rules
// (GET, Storage's list call, GET rpc calls in PostgREST's read-only transaction). Probes are marked `as` an account;
// retrieval adds the account's token. Pure.
import { hintedParameters } from '../analysis/function-arguments';
import { analyzeSupabase, projectLabel, supabaseHeaders, type SupabaseProject } from '../analysis/supabase';
import type { ProbeRequest, Site, SiteBeforeProbes } from '../types';

export const SIGNED_IN_ID = 'supabase-cross-user-read';
/** As many tables as the anonymous table check reads, each once per account. */
const MAX_TABLES = 18;
const MAX_BUCKETS = 10;
const MAX_FUNCTIONS = 8;
/** A few rows: enough to see whose they are, few enough to keep little of anyone's data. */
export const ROW_LIMIT = 5;
const LIST_LIMIT = 20;
/** Parameters that take a user's id: the ones a function filters by owner. */
const USER_PARAM = /^(?:p_|_|in_|arg_)?(?:user|owner|profile|author|member|account|customer|uid)(?:_?id|_?uuid)?$/i;

export interface TargetRead {
  kind: 'table' | 'bucket' | 'function';
  project: SupabaseProject;
  name: string;
  /** One probe per test account, in account order. */
  probes: ProbeRequest[];
  /** For functions: the user-id parameter, and whose id each account's call passes (index of the other account). */
  param?: string;
  subjects?: number[];
}

function projects(site: SiteBeforeProbes): SupabaseProject[] {
  return analyzeSupabase(site).projects.filter((p) => p.keys.length > 0);
}

/** The given test accounts: an active scan's throwaway account (listed last) has reads of its own (throwaway-reads.ts). */
const testAccounts = (site: SiteBeforeProbes) => (site.accounts ?? []).filter((account) => !account.throwaway);

/** A few rows of a table or view, read as account `as`; `check` names the check planning it in the key. */
export function tableProbe(project: SupabaseProject, name: string, as: number, check = SIGNED_IN_ID): ProbeRequest {
  const url = `${project.url}/rest/v1/${encodeURIComponent(name)}?select=*&limit=${ROW_LIMIT}`;
  return { key: `${check}:rows:${projectLabel(project)}:${name}:${as}`, method: 'GET', url, headers: supabaseHeaders(project.keys[0]!), as };
}

/** One page of a bucket's top level (Storage's list call, which only reads), as account `as`. */
export function bucketProbe(project: SupabaseProject, name: string, as: number, check = SIGNED_IN_ID): ProbeRequest {
  return {
    key: `${check}:list:${projectLabel(project)}:${name}:${as}`,
    method: 'POST',
    readOnly: true,
    url: `${project.url}/storage/v1/object/list/${encodeURIComponent(name)}`,
    headers: supabaseHeaders(project.keys[0]!, { 'Content-Type': 'application/json' }),
    body: JSON.stringify({ prefix: '', limit: LIST_LIMIT, offset: 0, sortBy: { column: 'name', order: 'asc' } }),
    as,
  };
}

/** The tables and buckets a signed-in scan reads, within the same bounds as the anonymous checks. */
export function readTargets(site: SiteBeforeProbes): { tables: string[]; buckets: string[] } {
  const info = analyzeSupabase(site);
  return { tables: info.tables.slice(0, MAX_TABLES).map((t) => t.name), buckets: info.buckets.slice(0, MAX_BUCKETS).map((b) => b.name) };
}

/** First-round reads: each table and bucket, as each account. */
export function plannedReads(site: SiteBeforeProbes): TargetRead[] {
  const accounts = testAccounts(site);
  if (accounts.length === 0) return [];
  const { tables, buckets } = readTargets(site);
  const reads: TargetRead[] = [];
  for (const project of projects(site)) {
    for (const name of tables) reads.push({ kind: 'table', project, name, probes: accounts.map((_, as) => tableProbe(project, name, as)) });
    for (const name of buckets) reads.push({ kind: 'bucket', project, name, probes: accounts.map((_, as) => bucketProbe(project, name, as)) });
  }
  return reads;
}

/** The anonymous bare call's answer (supabase-rpc-exposed), which names a function's parameters when it takes some. */
export const bareCallKey = (project: SupabaseProject, name: string): string => `supabase-rpc-exposed:call:${projectLabel(project)}:${name}`;

/**
 * Second-round reads: functions taking a user id, each account calling with the other account's id (learned from its
 * sign-in, never guessed). Needs two signed-in accounts; a function the anonymous call already read is left to it.
 */
export function functionReads(site: Site): TargetRead[] {
  const accounts = testAccounts(site);
  const ids = accounts.map((a) => (a.signedIn ? a.userId : undefined));
  if (accounts.length < 2 || ids.some((id) => id === undefined)) return [];
  const info = analyzeSupabase(site);
  const reads: TargetRead[] = [];
  for (const project of projects(site)) {
    const label = projectLabel(project);
    for (const { name } of info.rpcs.slice(0, MAX_FUNCTIONS)) {
      const bare = site.probes.get(bareCallKey(project, name));
      const params = bare && bare.status === 404 ? hintedParameters(bare.body, name) : undefined;
      const param = params?.length === 1 && USER_PARAM.test(params[0]!) ? params[0]! : undefined;
      if (!param) continue;
      const subjects = accounts.map((_, as) => (as + 1) % accounts.length);
      const base = `${project.url}/rest/v1/rpc/${encodeURIComponent(name)}`;
      const probes = accounts.map((_, as) => ({
        key: `${SIGNED_IN_ID}:call:${label}:${name}:${as}`,
        method: 'GET' as const,
        url: `${base}?${encodeURIComponent(param)}=${encodeURIComponent(ids[subjects[as]!]!)}`,
        headers: supabaseHeaders(project.keys[0]!),
        as,
      }));
      reads.push({ kind: 'function', project, name, probes, param, subjects });
    }
  }
  return reads;
}
