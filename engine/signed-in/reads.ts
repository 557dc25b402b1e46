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

/** First-round reads: each table and bucket, as each account. */
export function plannedReads(site: SiteBeforeProbes): TargetRead[] {
  const accounts = site.accounts ?? [];
  if (accounts.length === 0) return [];
  const info = analyzeSupabase(site);
  const reads: TargetRead[] = [];
  for (const project of projects(site)) {
    const key = project.keys[0]!;
    const label = projectLabel(project);
    for (const { name } of info.tables.slice(0, MAX_TABLES)) {
      const url = `${project.url}/rest/v1/${encodeURIComponent(name)}?select=*&limit=${ROW_LIMIT}`;
      const probes = accounts.map((_, as) => ({ key: `${SIGNED_IN_ID}:rows:${label}:${name}:${as}`, method: 'GET' as const, url, headers: supabaseHeaders(key), as }));
      reads.push({ kind: 'table', project, name, probes });
    }
    for (const { name } of info.buckets.slice(0, MAX_BUCKETS)) {
      const probes = accounts.map((_, as) => ({
        key: `${SIGNED_IN_ID}:list:${label}:${name}:${as}`,
        method: 'POST' as const,
        readOnly: true,
        url: `${project.url}/storage/v1/object/list/${encodeURIComponent(name)}`,
        headers: supabaseHeaders(key, { 'Content-Type': 'application/json' }),
        body: JSON.stringify({ prefix: '', limit: LIST_LIMIT, offset: 0, sortBy: { column: 'name', order: 'asc' } }),
        as,
      }));
      reads.push({ kind: 'bucket', project, name, probes });
    }
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
  const accounts = site.accounts ?? [];
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
