// Findings of a signed-in scan's reads of the site's own API: a record of one test account fetched by id as the other
// (broken object-level authorization), a listing or GraphQL query that hands a signed-in user other users' records,
// and an admin route that answers a plain user with data. Which account sent which request is named, the bearer is
// masked (retrieval recorded it so), other users' values and ids are masked. Pure.
import { SEVERITY_RANK } from '../../common/scan';
import { rateExposure, severityWord, type ExposureRating } from '../analysis/data-exposure';
import { maskedJsonExcerpt, privateDataIn } from '../analysis/private-data';
import { normaliseFieldName } from '../analysis/sensitive-fields';
import type { Exchange, FindingDraft, ProbeRequest, Severity, Site, SiteAccount } from '../types';
import { jsonAnswer, recordsOf } from './api-records';
import { graphqlReads, idReads, restReads, sessionProbe, USER_KEYED, type ApiRead, type IdRead } from './api-reads';
import { crossRead, type CrossRead } from './compare';
import { maskId } from './findings';

type Row = Record<string, unknown>;

const who = (account: SiteAccount | undefined): string => (account ? `${account.login}${account.userId ? ` (user ${maskId(account.userId)})` : ''}` : 'a test account');
const atLeastMedium = (severity: Severity): Severity => (SEVERITY_RANK[severity] >= SEVERITY_RANK.medium ? severity : 'medium');
/** Records apps show every member by design (a feed, a catalogue): seen with nothing personal in them, they are low. */
export const SHARED_CONTENT =
  /^(?:posts?|comments?|feeds?|articles?|reviews?|products?|listings?|events?|courses?|lessons?|recipes?|questions?|answers?|threads?|replies|likes|leaderboards?|announcements?|categories|tags)$/i;
/** At least medium: another user's records are private by default, unless they are shared content and hold nothing personal. */
const rated = (severity: Severity, subject: string, personal: boolean): Severity =>
  (SHARED_CONTENT.test(subject) || USER_KEYED.test(subject)) && !personal ? 'low' : atLeastMedium(severity);

/** The rating's sentence, said as raised when another user's records rate higher than their values alone. */
function reasonFor(rating: ExposureRating, severity: Severity): string {
  if (severity === rating.severity) return rating.reason;
  return `${severityWord(severity)}: another user's records are private by default, whatever they hold (on its own, ${rating.reason.replace(/^\w+: /, '').replace(/\.$/, '')}).`;
}

/** The anonymous read of the same URL (api-unauthenticated-data): data it got is reported there, not twice. */
const anonymousKey = (url: string) => `api-unauthenticated-data:GET:${url}`;

/** Masks each given value (ids of the accounts and their records) wherever it shows. */
function maskValues(text: string, values: ReadonlyArray<string | undefined>): string {
  return values.reduce<string>((out, value) => (value && value.length > 3 && out.includes(value) ? out.split(value).join(maskId(value)) : out), text);
}

/** The request as it went: the account, the line, the bearer as retrieval recorded it (masked). */
function sentAs(site: Site, probe: ProbeRequest, hide: ReadonlyArray<string | undefined>): string {
  const account = site.accounts?.[probe.as ?? -1];
  const answer = site.probes.get(probe.key);
  const bearer = answer?.requestHeaders.authorization ?? answer?.requestHeaders.Authorization ?? 'Bearer <access token of the account>';
  return [
    `Sent as ${who(account)}`,
    maskValues(`${probe.method} ${probe.url}`, hide),
    ...Object.entries(probe.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    `Authorization: ${bearer}`,
  ].join('\n');
}

function answerLines(answer: Exchange | undefined, json: unknown, hide: ReadonlyArray<string | undefined>): string {
  return answer ? `HTTP ${answer.status}\n${maskValues(maskedJsonExcerpt(json), hide)}` : 'no answer';
}

/** What a finding calls the records: the path's last word that is not an id ("orders"). */
export function subjectOf(read: Pick<ApiRead, 'kind' | 'name' | 'url'>): string {
  if (read.kind === 'graphql') return read.name;
  const words = new URL(read.url).pathname.split('/').filter((w) => w && !/^(?:api|rest|v\d{1,2}|\d+)$/i.test(w));
  return words.at(-1) ?? 'records';
}

const ids = (site: Site): string[] => (site.accounts ?? []).flatMap((a) => a.userId ?? []);

function listingDraft(site: Site, read: ApiRead, cross: CrossRead): FindingDraft {
  const accounts = site.accounts ?? [];
  const reader = accounts[cross.reader];
  const owner = cross.owner !== undefined ? accounts[cross.owner] : undefined;
  const probe = read.probes[cross.reader]!;
  const answer = site.probes.get(probe.key);
  const subject = subjectOf(read);
  const columns = [...new Set(cross.rows.flatMap((row) => Object.keys(row)))].slice(0, 200);
  const rating = rateExposure({ columns, row: cross.rows[0], subject, what: "another user's record" });
  // A feed or member list showing names only is low; contact details or more make it a finding.
  const severity = rated(
    rating.severity,
    subject,
    rating.kinds.some((kind) => kind !== 'person-name'),
  );
  const value = cross.rows[0]?.[cross.column];
  const ownerValue = typeof value === 'string' || typeof value === 'number' ? String(value) : (owner?.userId ?? '');
  const hide = [...ids(site), ...cross.rows.map((row) => (typeof row.id === 'string' ? row.id : undefined))];
  const via = read.kind === 'graphql' ? `the GraphQL query on ${read.name} that the site's front end sends` : `GET ${new URL(read.url).pathname}`;
  return {
    url: read.kind === 'graphql' ? read.url.split('?')[0]! : read.url,
    title: `Any signed-in user can read other users' ${subject}`,
    severity,
    detail:
      `Signed in as ${who(reader)}, ${via} answered ${cross.read} record${cross.read === 1 ? '' : 's'}; ${cross.rows.length} belong${cross.rows.length === 1 ? 's' : ''} to other users` +
      `${owner ? `, among them the other test account, ${who(owner)}` : ` (${cross.column} = ${maskId(ownerValue)}, not the reader's id)`}. The route checks that a user is signed in, not whose records it returns. ${reasonFor(rating, severity)}`,
    evidence: {
      request: sentAs(site, probe, hide),
      response: [
        answerLines(answer, recordsOf(site, answer).slice(0, 2), hide),
        `Records of another user: ${cross.rows.length} (${cross.column} = ${maskId(ownerValue)}; the reader's id is ${maskId(reader?.userId ?? '')})`,
        `Fix: scope the query to the session's user in the route: \`where ${normaliseFieldName(cross.column)} = $session.user\` (with Supabase, \`.eq('${normaliseFieldName(cross.column)}', user.id)\` after \`supabase.auth.getUser()\`, or row level security with the user's JWT instead of a service-role client).`,
      ].join('\n'),
      match: `${cross.column} = ${maskId(ownerValue)}`,
    },
    key: `${read.kind}:${new URL(read.url).pathname}:${read.name}`,
  };
}

/** Whether a record fetched by id is the other account's: it carries the id asked for or the owner's user id. */
function isTheirs(record: Row, id: string, ownerId: string | undefined): boolean {
  const values = Object.values(record)
    .slice(0, 200)
    .map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined));
  const own = [record.id, record.uuid].map((v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined));
  return own.includes(id) || (ownerId !== undefined && values.includes(ownerId));
}

function byIdDraft(site: Site, hit: IdRead, record: Row): FindingDraft {
  const accounts = site.accounts ?? [];
  const reader = accounts[hit.reader];
  const owner = accounts[hit.owner];
  const answer = site.probes.get(hit.probe.key);
  const subject = subjectOf({ kind: 'rest', name: '', url: hit.prefix });
  const rating = rateExposure({ columns: Object.keys(record), row: record, subject, what: "the other user's record" });
  // A profile showing only a name (a public profile page) is low; contact details or more make it a finding.
  const severity = rated(
    rating.severity,
    subject,
    rating.kinds.some((kind) => kind !== 'person-name'),
  );
  const hide = [...ids(site), hit.id];
  const path = `${new URL(hit.prefix).pathname}/:id`;
  return {
    url: `${hit.prefix}/:id`,
    title: `Any signed-in user can read another user's ${subject} by id`,
    severity,
    detail:
      `Signed in as ${who(reader)}, the scan asked GET ${path} for ${maskId(hit.id)}, a record of ${who(owner)} (the id came from ${hit.learnedFrom}), and got it back. ` +
      `The route finds the record by id without checking it belongs to the user asking (OWASP API1, broken object-level authorization). ${reasonFor(rating, severity)}`,
    evidence: {
      request: `${sentAs(site, hit.probe, hide)}\n(the id came from ${hit.learnedFrom}; no other id was asked for)`,
      response: [
        answerLines(answer, record, hide),
        `Fix: check ownership in the route: \`select * from ${subject} where id = $1 and user_id = $session.user\` (404 when no row matches), or read with the user's Supabase JWT under a policy \`using (auth.uid() = user_id)\`.`,
      ].join('\n'),
      match: `${path} as ${reader?.login ?? 'the reader'} = ${owner?.login ?? 'the owner'}'s record`,
    },
    key: `id:${path}`,
  };
}

/** Reads answered with other users' records, per listing or query; one by-id finding per template. */
export function crossUserApiFindings(site: Site): FindingDraft[] {
  const accounts = site.accounts ?? [];
  const drafts: FindingDraft[] = [];
  for (const read of [...restReads(site), ...graphqlReads(site)]) {
    if (read.admin || recordsOf(site, site.probes.get(anonymousKey(read.url))).length > 0) continue;
    const perAccount = read.probes.map((probe, index) => ({ index, rows: recordsOf(site, site.probes.get(probe.key)) }));
    const cross = crossRead(accounts, perAccount, subjectOf(read));
    if (cross) drafts.push(listingDraft(site, read, cross));
  }
  const reported = new Set<string>();
  for (const hit of idReads(site)) {
    if (reported.has(hit.prefix)) continue;
    const record = recordsOf(site, site.probes.get(hit.probe.key)).find((r) => isTheirs(r, hit.id, accounts[hit.owner]?.userId));
    if (!record) continue;
    reported.add(hit.prefix);
    drafts.push(byIdDraft(site, hit, record));
  }
  return drafts;
}

const ADMIN_ROLE = /^(?:admin|administrator|superadmin|super_admin|owner|staff)$/i;

/** Whether the account holds an admin role (its Supabase user's metadata, or its own record in an API answer). */
export function isAdminAccount(site: Site, index: number): boolean {
  const account = site.accounts?.[index];
  const probe = sessionProbe(site, index);
  const user = probe ? jsonAnswer(site, site.probes.get(probe.key)) : undefined;
  const meta = (user ?? {}) as { app_metadata?: Row; user_metadata?: Row };
  const flags = [meta.app_metadata, meta.user_metadata].flatMap((m) => (m ? [m.role, m.is_admin, m.isAdmin, m.admin] : []));
  if (flags.some((f) => f === true || (typeof f === 'string' && ADMIN_ROLE.test(f)))) return true;
  if (!account?.userId) return false;
  const own = restReads(site).flatMap((read) => recordsOf(site, site.probes.get(read.probes[index]?.key ?? '')).filter((r) => r.id === account.userId));
  return own.some((r) => r.is_admin === true || r.isAdmin === true || (typeof r.role === 'string' && ADMIN_ROLE.test(r.role)));
}

/** Data in an answer: records, or an object with more than an error message. */
function hasData(json: unknown): boolean {
  if (Array.isArray(json)) return json.length > 0;
  if (json === null || typeof json !== 'object') return false;
  const keys = Object.keys(json);
  return keys.length > 0 && !keys.every((k) => /^(?:error|errors|message|msg|code|status|statusCode|success|ok)$/i.test(k));
}

function adminDraft(site: Site, read: ApiRead, index: number, answer: Exchange, json: unknown): FindingDraft {
  const anonymous = site.probes.get(anonymousKey(read.url));
  const refused =
    anonymous && anonymous.status >= 300 && anonymous.status < 500
      ? `Anonymous requests get HTTP ${anonymous.status}, so the route checks that a token exists, not the caller's role`
      : 'The route checks that the caller is signed in, not her role';
  const account = site.accounts?.[index];
  const probe = read.probes[index]!;
  const path = new URL(read.url).pathname;
  const data = privateDataIn(json, answer.body, path);
  const listsUsers = data !== undefined && (data.people > 0 || data.credentials.length > 0 || data.namesOnly);
  const severity: Severity = data?.severity === 'critical' ? 'critical' : listsUsers ? 'high' : 'medium';
  return {
    url: read.url,
    title: `Admin API ${path} answers a signed-in user who is not an admin`,
    severity,
    detail:
      `The site's code treats ${path} as for admins only (${/admin/i.test(path) ? 'an admin path' : 'called behind a role guard'}), yet signed in as ${who(account)}, an account without an admin role, GET ${path} answered HTTP ${answer.status} with data` +
      `${listsUsers ? `: ${data.reason}` : '.'} ${refused} (OWASP API5, broken function-level authorization).`,
    evidence: {
      request: sentAs(site, probe, ids(site)),
      response: [
        answerLines(answer, json, ids(site)),
        "Fix: check the role on the server in this route (e.g. `if (profile.role !== 'admin') return 403`, the role read from the database or the JWT's app_metadata, never from the client), not only in the front end's route guard.",
      ].join('\n'),
      match: `HTTP ${answer.status} to ${account?.login ?? 'a plain user'}`,
    },
    key: `admin:${path}`,
  };
}

/** Records that are all the reader's own (her id, or her id in a field): an admin route scoping a plain user to herself. */
function onlyOwn(records: readonly Row[], userId: string | undefined): boolean {
  if (!userId || records.length === 0) return false;
  return records.every((record) =>
    Object.values(record)
      .slice(0, 200)
      .some((value) => value === userId),
  );
}

/** Admin routes that answered a plain signed-in user with data, while the anonymous read was refused. */
export function adminApiFindings(site: Site): FindingDraft[] {
  const accounts = site.accounts ?? [];
  const drafts: FindingDraft[] = [];
  for (const read of restReads(site)) {
    if (!read.admin || hasData(jsonAnswer(site, site.probes.get(anonymousKey(read.url))))) continue;
    for (let index = 0; index < accounts.length; index++) {
      if (!accounts[index]!.signedIn || isAdminAccount(site, index)) continue;
      const answer = site.probes.get(read.probes[index]!.key);
      const json = jsonAnswer(site, answer);
      if (!answer || !hasData(json) || onlyOwn(recordsOf(site, answer), accounts[index]!.userId)) continue;
      drafts.push(adminDraft(site, read, index, answer, json));
      break;
    }
  }
  return drafts;
}
