// Active scans: what a brand-new account can read where anyone can sign up. The scan reads each Supabase project's
// public Auth settings (GET /auth/v1/settings, as supabase-js does); on the first project whose sign-up is open to
// email addresses with no confirmation step, it repeats the signed-in reads (reads.ts) as the throwaway account the
// main thread creates on first use (session-store.ts, throwaway.ts). A new account owns nothing, so any row of
// another user it reads, and any folder named after another user, is what anyone on the internet can read after a
// sign-up. Pure.
import { SEVERITY_RANK } from '../../common/scan';
import { describeSightings, rateExposure } from '../analysis/data-exposure';
import { analyzeSupabase, projectLabel, supabaseHeaders, unanswered, type SupabaseProject } from '../analysis/supabase';
import { listedObjects } from '../checks/supabase-bucket-listable';
import { readRows } from '../checks/supabase-table-readable';
import type { Exchange, FindingDraft, ProbeRequest, Severity, Site, SiteAccount, SiteBeforeProbes } from '../types';
import { crossListing, crossRead, PEOPLE_TABLE, type CrossRead } from './compare';
import { maskId, rows, sentRequest } from './findings';
import { bucketProbe, readTargets, tableProbe, type TargetRead } from './reads';

export const SIGN_UP_READ_ID = 'supabase-signup-read';
/** Projects whose settings are read: a site talks to one, rarely two; the scan creates one account at most anyway. */
const MAX_PROJECTS = 3;
/** GoTrue's settings answer is well under 2 KB: anything far larger is not it, and is not parsed. */
const MAX_SETTINGS_BYTES = 64 * 1024;

type Row = Record<string, unknown>;

/** The throwaway account as checks see it (listed after the given accounts), when the scan is active. */
export function throwawayAccount(site: SiteBeforeProbes): { index: number; account: SiteAccount } | undefined {
  if (!site.options.active) return undefined;
  const index = (site.accounts ?? []).findIndex((account) => account.throwaway);
  return index < 0 ? undefined : { index, account: site.accounts![index]! };
}

const projectsOf = (site: SiteBeforeProbes): SupabaseProject[] =>
  analyzeSupabase(site)
    .projects.filter((p) => p.keys.length > 0)
    .slice(0, MAX_PROJECTS);
const settingsKey = (project: SupabaseProject) => `${SIGN_UP_READ_ID}:settings:${projectLabel(project)}`;

/** GET /auth/v1/settings of each project, active scans only (a passive scan does not need to know). */
export function settingsProbes(site: SiteBeforeProbes): ProbeRequest[] {
  if (!throwawayAccount(site)) return [];
  return projectsOf(site).map((project) => ({
    key: settingsKey(project),
    method: 'GET' as const,
    url: `${project.url}/auth/v1/settings`,
    headers: supabaseHeaders(project.keys[0]!),
  }));
}

/** What a project's Auth settings say about signing up. */
export type SignUpPolicy = 'open' | 'confirm' | 'closed' | 'no-email' | 'unknown';

/** Reads GoTrue's settings answer: `disable_signup`, `external.email` and `mailer_autoconfirm`. */
export function signUpPolicy(answer: Exchange | undefined): SignUpPolicy {
  if (!answer || answer.error || answer.status !== 200 || answer.body.length > MAX_SETTINGS_BYTES) return 'unknown';
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return 'unknown';
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'unknown';
  const { disable_signup: disabled, external, mailer_autoconfirm: autoconfirm } = body as Record<string, unknown>;
  if (typeof disabled !== 'boolean' || !external || typeof external !== 'object') return 'unknown';
  if (disabled) return 'closed';
  if ((external as Record<string, unknown>).email !== true) return 'no-email';
  // Older GoTrue versions do not say; the sign-up's answer (a session or not) then decides.
  return autoconfirm === false ? 'confirm' : 'open';
}

/** The project a throwaway account signs up to: the first whose sign-up is open with no confirmation step. */
export function signUpProject(site: Site): SupabaseProject | undefined {
  return projectsOf(site).find((project) => signUpPolicy(site.probes.get(settingsKey(project))) === 'open');
}

/** The reads as the throwaway account: each table and bucket of the open project, once. */
export function throwawayReads(site: Site): TargetRead[] {
  const throwaway = throwawayAccount(site);
  const project = throwaway && signUpProject(site);
  if (!throwaway || !project) return [];
  const { tables, buckets } = readTargets(site);
  return [
    ...tables.map((name): TargetRead => ({ kind: 'table', project, name, probes: [tableProbe(project, name, throwaway.index, SIGN_UP_READ_ID)] })),
    ...buckets.map((name): TargetRead => ({ kind: 'bucket', project, name, probes: [bucketProbe(project, name, throwaway.index, SIGN_UP_READ_ID)] })),
  ];
}

/** Follow-ups: settings of projects confirmed late (custom domains), then the throwaway's reads once one is open. */
export function signUpFollowUps(site: Site): ProbeRequest[] {
  return [...unanswered(site, settingsProbes(site)), ...throwawayReads(site).flatMap((read) => read.probes)];
}

const POLICY_REASON: Record<Exclude<SignUpPolicy, 'open'>, (project: string) => string> = {
  closed: (project) => `Sign-up is closed on ${project} (disable_signup is on), so a stranger cannot get an account.`,
  'no-email': (project) => `Email sign-up is off on ${project}.`,
  confirm: (project) =>
    `Anyone can sign up on ${project}, but a new account must confirm its email address before it can sign in (mailer_autoconfirm is off), so the scan created none.`,
  unknown: (project) => `The Auth settings of ${project} (/auth/v1/settings) could not be read, so the scan created none.`,
};

/**
 * Why an active scan created no throwaway account, from the settings answers alone: this runs on the scan's main
 * thread (coverage), where no pattern reads the site's texts, so it reads no bundle, only those small JSON answers.
 */
export function noSignUpReason(site: Site): string | undefined {
  if (!site.options.active) return undefined;
  const answers = [...site.probes].filter(([key]) => key.startsWith(`${SIGN_UP_READ_ID}:settings:`)).map(([, answer]) => answer);
  if (answers.length === 0) return 'The site shows no Supabase project with a public key to sign up to.';
  const answer = answers.find((a) => signUpPolicy(a) === 'open') ?? answers[0]!;
  const policy = signUpPolicy(answer);
  let project = answer.url;
  try {
    project = new URL(answer.url).origin;
  } catch {
    // keep the URL as sent
  }
  return policy === 'open' ? `Sign-up is open on ${project}, but no table or bucket was found to read as a new account.` : POLICY_REASON[policy](project);
}

const atLeastMedium = (severity: Severity): Severity => (SEVERITY_RANK[severity] >= SEVERITY_RANK.medium ? severity : 'medium');

const idText = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);

/**
 * Rows a brand-new account read that are not its own: any with another user's id in an owner column (compare.ts), and
 * any row of a people table that does not hold the account's own id (it has no data but, at most, its own profile).
 */
export function foreignRows(account: SiteAccount, read: Row[], table: string): CrossRead | undefined {
  const cross = crossRead([account], [{ index: 0, rows: read }], table);
  if (cross || !PEOPLE_TABLE.test(table) || !account.userId) return cross;
  const others = read.filter((row) => !Object.values(row).some((value) => idText(value) === account.userId));
  if (others.length === 0) return undefined;
  const column = 'id' in others[0]! ? 'id' : (Object.keys(others[0]!)[0] ?? 'id');
  return { reader: 0, rows: others.slice(0, 5), column, read: read.length };
}

const DELETE_IT = 'Delete that account in the Supabase dashboard (Authentication > Users).';

function tableDraft(site: Site, read: TargetRead, account: SiteAccount, cross: CrossRead): FindingDraft {
  const answer = site.probes.get(read.probes[0]!.key);
  const columns = [...new Set(cross.rows.flatMap((row) => Object.keys(row)))].slice(0, 200);
  const rating = rateExposure({ columns, row: cross.rows[0], subject: read.name, what: "another user's row" });
  const seen = describeSightings(rating);
  const value = idText(cross.rows[0]?.[cross.column]) ?? '';
  const owner = cross.column === 'id' || /user|owner|profile|created_by|author/.test(cross.column) ? cross.column : 'user_id';
  return {
    url: `${read.project.url}/rest/v1/${read.name}`,
    title: `Anyone can sign up and read ${read.name}`,
    severity: atLeastMedium(rating.severity),
    detail:
      `Anyone can create an account on this project (sign-up is open, with no email confirmation). The scan signed up as ${account.login}, a brand-new account that owns no data, and read ${cross.read} row${cross.read === 1 ? '' : 's'} of table "${read.name}"; ` +
      `${cross.rows.length} belong${cross.rows.length === 1 ? 's' : ''} to other users. The policy lets any signed-in user read the table (e.g. \`to authenticated using (true)\`), and anyone can become one. ${rating.reason} ${DELETE_IT.replace('that account', account.login)}`,
    evidence: {
      request: sentRequest(read, 0, answer, account),
      response: [
        answer ? `HTTP ${answer.status}, ${cross.read} row${cross.read === 1 ? '' : 's'} (values not kept)` : 'no answer',
        `Throwaway account created by the scan: ${account.login}. ${DELETE_IT}`,
        `Rows of other users: ${cross.rows.length} (column ${cross.column} = ${maskId(value)}; the new account's id is ${maskId(account.userId ?? '')})`,
        `Columns: ${columns.slice(0, 30).join(', ')}`,
        seen.length > 0 ? `Seen in another user's row (masked): ${seen.join('; ')}` : undefined,
        `Fix: create policy "Users read their own ${read.name}" on public.${read.name} for select to authenticated using (auth.uid() = ${owner}); and, if the app is invite-only, turn sign-up off (Authentication > Sign In / Providers > Allow new users to sign up).`,
      ]
        .filter(Boolean)
        .join('\n'),
      match: `${cross.column} = ${maskId(value)}`,
    },
    key: `${projectLabel(read.project)}/signup/table/${read.name}`,
  };
}

function bucketDraft(site: Site, read: TargetRead, account: SiteAccount): FindingDraft | undefined {
  const answer = site.probes.get(read.probes[0]!.key);
  const cross = crossListing([account], [{ index: 0, names: listedObjects(answer).map((o) => o.name) }]);
  if (!cross) return undefined;
  return {
    url: `${read.project.url}/storage/v1/object/list/${read.name}`,
    title: `Anyone can sign up and list other users' files in bucket "${read.name}"`,
    severity: 'high',
    detail: `Anyone can create an account on this project (sign-up is open, with no email confirmation). The scan signed up as ${account.login}, a brand-new account with no files, listed bucket "${read.name}" and saw ${cross.names.length} folder${cross.names.length === 1 ? '' : 's'} named after other users. ${DELETE_IT.replace('that account', account.login)}`,
    evidence: {
      request: sentRequest(read, 0, answer, account),
      response: [
        answer ? `HTTP ${answer.status}` : 'no answer',
        `Throwaway account created by the scan: ${account.login}. ${DELETE_IT}`,
        `Other users' folders (masked): ${cross.names.map(maskId).join(', ')}; the new account's id is ${maskId(account.userId ?? '')}`,
        `Fix: create policy "Users list their own files" on storage.objects for select to authenticated using (bucket_id = '${read.name}' and (storage.foldername(name))[1] = auth.uid()::text);`,
      ].join('\n'),
      match: cross.names.map(maskId).join(', '),
    },
    key: `${projectLabel(read.project)}/signup/bucket/${read.name}`,
  };
}

/** Whether the anonymous checks already read this (reported there, not twice). */
function readAnonymously(site: Site, read: TargetRead): boolean {
  if (read.kind === 'table') return readRows(site).some((r) => r.table === read.name && r.projectUrl === read.project.url);
  return listedObjects(site.probes.get(`supabase-bucket-listable:objects:${projectLabel(read.project)}:${read.name}`)).length > 0;
}

/** Every finding of the throwaway account's reads. */
export function signUpFindings(site: Site): FindingDraft[] {
  const throwaway = throwawayAccount(site);
  if (!throwaway?.account.signedIn) return [];
  const drafts: FindingDraft[] = [];
  for (const read of throwawayReads(site)) {
    if (readAnonymously(site, read)) continue;
    if (read.kind === 'bucket') {
      const draft = bucketDraft(site, read, throwaway.account);
      if (draft) drafts.push(draft);
      continue;
    }
    const cross = foreignRows(throwaway.account, rows(site.probes.get(read.probes[0]!.key)) ?? [], read.name);
    if (cross) drafts.push(tableDraft(site, read, throwaway.account, cross));
  }
  return drafts;
}
