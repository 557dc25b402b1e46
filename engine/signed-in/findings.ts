// Findings of a signed-in scan: which account read whose data, with which request (tokens masked), the other user's
// values masked, rated by what those values are (at least medium: another user's rows are private by default).
import { SEVERITY_RANK } from '../../common/scan';
import { describeSightings, rateExposure } from '../analysis/data-exposure';
import { describeRequest, projectLabel } from '../analysis/supabase';
import { listedObjects } from '../checks/supabase-bucket-listable';
import { readRows } from '../checks/supabase-table-readable';
import type { Exchange, FindingDraft, Severity, Site, SiteAccount } from '../types';
import { crossListing, crossRead, type CrossRead } from './compare';
import type { TargetRead } from './reads';

type Row = Record<string, unknown>;

/** An id as evidence shows it: enough to recognise, not the whole value. */
export const maskId = (value: string): string => (value.length > 8 ? `${value.slice(0, 8)}…` : value);

/** The rows of a PostgREST answer (an array of objects, or one object), or undefined when it is not one. */
export function rows(exchange: Exchange | undefined): Row[] | undefined {
  if (!exchange || exchange.error || exchange.status < 200 || exchange.status > 299) return undefined;
  try {
    const value: unknown = JSON.parse(exchange.body);
    const list = Array.isArray(value) ? value : [value];
    return list.filter((row): row is Row => row !== null && typeof row === 'object' && !Array.isArray(row));
  } catch {
    return undefined;
  }
}

const who = (account: SiteAccount | undefined): string => (account ? `${account.login}${account.userId ? ` (user ${maskId(account.userId)})` : ''}` : 'a test account');

/** The request as sent: the account's bearer as the answer recorded it (masked by retrieval), the key masked here. */
export function sentRequest(read: TargetRead, reader: number, answer: Exchange | undefined, account: SiteAccount | undefined): string {
  const probe = read.probes[reader]!;
  const sent = answer?.requestHeaders.authorization ?? answer?.requestHeaders.Authorization;
  const headers = { ...(probe.headers ?? {}), Authorization: sent ?? 'Bearer <access token of the account>' };
  const lines = describeRequest(probe.method, probe.url, headers).split('\n');
  // describeRequest masks again; the token was already masked, so keep the recorded line.
  return [`Sent as ${who(account)}`, ...lines.map((line) => (/^authorization:/i.test(line) ? `Authorization: ${headers.Authorization}` : line))].join('\n');
}

const atLeastMedium = (severity: Severity): Severity => (SEVERITY_RANK[severity] >= SEVERITY_RANK.medium ? severity : 'medium');

const FIX_TABLE = (name: string, column: string) => `create policy "Users read their own ${name}" on public.${name} for select to authenticated using (auth.uid() = ${column});`;

function rowsDraft(site: Site, read: TargetRead, cross: CrossRead): FindingDraft {
  const accounts = site.accounts ?? [];
  const reader = accounts[cross.reader];
  const owner = cross.owner !== undefined ? accounts[cross.owner] : undefined;
  const answer = site.probes.get(read.probes[cross.reader]!.key);
  const columns = [...new Set(cross.rows.flatMap((row) => Object.keys(row)))].slice(0, 200);
  const rating = rateExposure({ columns, row: cross.rows[0], subject: read.name, what: "another user's row" });
  const seen = describeSightings(rating);
  const value = cross.rows[0]?.[cross.column];
  const ownerValue = typeof value === 'string' || typeof value === 'number' ? String(value) : (owner?.userId ?? '');
  const what = read.kind === 'function' ? `function ${read.name}() called with ${read.param} = the other account's user id` : `table "${read.name}"`;
  const whose = owner ? `the other test account, ${who(owner)}` : `another user (${cross.column} = ${maskId(ownerValue)}, not the reader's id)`;
  return {
    url: read.kind === 'function' ? `${read.project.url}/rest/v1/rpc/${read.name}` : `${read.project.url}/rest/v1/${read.name}`,
    title: read.kind === 'function' ? `Any signed-in user can read other users' data through ${read.name}()` : `Any signed-in user can read other users' ${read.name}`,
    severity: atLeastMedium(rating.severity),
    detail:
      `Signed in as ${who(reader)}, the scan read ${cross.read} row${cross.read === 1 ? '' : 's'} of ${what}; ${cross.rows.length} belong${cross.rows.length === 1 ? 's' : ''} to ${whose}. ` +
      `The policy checks that a user is signed in, not that the row is hers (e.g. \`to authenticated using (true)\` or \`auth.uid() is not null\`). ${rating.reason}`,
    evidence: {
      request: sentRequest(read, cross.reader, answer, reader),
      response: [
        answer ? `HTTP ${answer.status}, ${cross.read} row${cross.read === 1 ? '' : 's'} (values not kept)` : 'no answer',
        `Rows of another user: ${cross.rows.length} (column ${cross.column} = ${maskId(ownerValue)}${owner ? `, the user id of ${owner.login}` : ''}; the reader's id is ${maskId(reader?.userId ?? '')})`,
        `Columns: ${columns.slice(0, 30).join(', ')}`,
        seen.length > 0 ? `Seen in another user's row (masked): ${seen.join('; ')}` : undefined,
        read.kind === 'function'
          ? `Fix: compare ${read.param} with auth.uid() inside the function, or drop the parameter and use auth.uid().`
          : `Fix: ${FIX_TABLE(read.name, PEOPLE_ID.test(cross.column) ? cross.column : 'user_id')}`,
      ]
        .filter(Boolean)
        .join('\n'),
      match: `${cross.column} = ${maskId(ownerValue)}`,
    },
    key: `${projectLabel(read.project)}/${read.kind}/${read.name}`,
  };
}

const PEOPLE_ID = /^(?:id|user_id|owner_id|profile_id|created_by|author_id)$/;

function bucketDraft(site: Site, read: TargetRead): FindingDraft | undefined {
  const accounts = site.accounts ?? [];
  const listings = read.probes.map((probe, index) => ({ index, names: listedObjects(site.probes.get(probe.key)).map((o) => o.name) }));
  const cross = crossListing(accounts, listings);
  if (!cross) return undefined;
  const reader = accounts[cross.reader];
  const owner = cross.owner !== undefined ? accounts[cross.owner] : undefined;
  const answer = site.probes.get(read.probes[cross.reader]!.key);
  return {
    url: `${read.project.url}/storage/v1/object/list/${read.name}`,
    title: `Any signed-in user can list other users' files in bucket "${read.name}"`,
    severity: 'high',
    detail: `Signed in as ${who(reader)}, the scan listed bucket "${read.name}" and saw ${cross.names.length} folder${cross.names.length === 1 ? '' : 's'} named after other users${owner ? `, including that of ${who(owner)}` : ''}. The storage.objects policy lets any signed-in user list every user's files.`,
    evidence: {
      request: sentRequest(read, cross.reader, answer, reader),
      response: [
        answer ? `HTTP ${answer.status}` : 'no answer',
        `Other users' folders (masked): ${cross.names.map(maskId).join(', ')}; the reader's id is ${maskId(reader?.userId ?? '')}`,
        `Fix: create policy "Users list their own files" on storage.objects for select to authenticated using (bucket_id = '${read.name}' and (storage.foldername(name))[1] = auth.uid()::text);`,
      ].join('\n'),
      match: cross.names.map(maskId).join(', '),
    },
    key: `${projectLabel(read.project)}/bucket/${read.name}`,
  };
}

/** Whether the anonymous checks already read this (reported there; not reported twice). */
function readAnonymously(site: Site, read: TargetRead): boolean {
  const label = projectLabel(read.project);
  if (read.kind === 'table') return readRows(site).some((r) => r.table === read.name && r.projectUrl === read.project.url);
  if (read.kind === 'bucket') return listedObjects(site.probes.get(`supabase-bucket-listable:objects:${label}:${read.name}`)).length > 0;
  return false;
}

/** Every finding of a signed-in scan's reads. */
export function signedInFindings(site: Site, reads: readonly TargetRead[]): FindingDraft[] {
  const accounts = site.accounts ?? [];
  const drafts: FindingDraft[] = [];
  for (const read of reads) {
    if (readAnonymously(site, read)) continue;
    if (read.kind === 'bucket') {
      const draft = bucketDraft(site, read);
      if (draft) drafts.push(draft);
      continue;
    }
    const perAccount = read.probes.map((probe, index) => ({ index, rows: rows(site.probes.get(probe.key)) ?? [] }));
    let cross = crossRead(accounts, perAccount, read.name);
    // A function asked for the other account's data: any row it returns is that account's.
    if (!cross && read.kind === 'function') {
      const hit = perAccount.find((p) => p.rows.length > 0 && accounts[p.index]?.signedIn);
      if (hit) cross = { reader: hit.index, rows: hit.rows.slice(0, 5), column: read.param ?? 'argument', owner: read.subjects?.[hit.index], read: hit.rows.length };
    }
    if (cross) drafts.push(rowsDraft(site, read, cross));
  }
  return drafts;
}
