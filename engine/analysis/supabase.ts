// What a site reveals about its Supabase backend: project URLs, the keys the browser uses, and the table, function
// and bucket names its code and traffic mention. Pure over retrieved texts; the checks turn this into probes.
import { supabaseJwtRole } from '../secrets/jwt';
import { maskSecret } from '../secrets/mask';
import { collectTexts, type TextSource } from '../secrets/scan';
import type { Exchange, ProbeRequest, Site, SiteBeforeProbes } from '../types';

/** Where a name came from, best first: seen in traffic, written in the bundle, or guessed. */
export type NameOrigin = 'traffic' | 'bundle' | 'wordlist';

export interface NamedThing {
  name: string;
  origin: NameOrigin;
}

export interface SupabaseProject {
  /** Origin of the project API, e.g. https://abcdefghijklmnopqrst.supabase.co or a custom domain. */
  url: string;
  /** Project ref, for *.supabase.co URLs and keys that carry it. */
  ref?: string;
  /** Public keys (anon JWT or sb_publishable_) the browser uses with this project, best first. Raw: mask before output. */
  keys: string[];
}

export interface SupabaseInfo {
  projects: SupabaseProject[];
  tables: NamedThing[];
  rpcs: NamedThing[];
  buckets: NamedThing[];
  /**
   * Origins that may be a Supabase project the bundle never names as one (a custom domain, a self-hosted instance):
   * found beside a public key no named project accounts for. Taken only once GoTrue answers there (confirmedProjects).
   */
  candidates: SupabaseCandidate[];
}

/** An origin to confirm as Supabase, with the keys it would be used with. */
export interface SupabaseCandidate {
  url: string;
  keys: string[];
  /** The hosted project URLs that only a key named (no URL in the site): the candidate stands for them once confirmed. */
  replaces: string[];
}

/** Table names vibe-coded apps use most; probed after the ones the site itself names. */
export const TABLE_WORDLIST = [
  'users',
  'profiles',
  'accounts',
  'customers',
  'orders',
  'payments',
  'subscriptions',
  'messages',
  'posts',
  'comments',
  'todos',
  'projects',
  'invoices',
  'leads',
  'contacts',
  'admin',
  'settings',
  'api_keys',
  'documents',
  'files',
  'notifications',
  'transactions',
] as const;

export const BUCKET_WORDLIST = ['avatars', 'uploads', 'public', 'images', 'documents', 'files', 'attachments'] as const;

const HOSTED = /https:\/\/([a-z0-9]{20})\.supabase\.(?:co|in)(?![\w.-])/g;
const JWT = /(?<![\w-])eyJ[A-Za-z0-9_-]{8,600}\.eyJ[A-Za-z0-9_-]{8,1500}\.[A-Za-z0-9_-]{8,1000}(?![\w-])/g;
const PUBLISHABLE = /(?<![\w-])sb_publishable_[\w-]{20,80}(?![\w-])/g;
/**
 * createClient(url, key) survives minification as `anyName("https://…","eyJ…")`, as two adjacent constants
 * (`const a="https://…",b="eyJ…"`, or `…";const b=…` once Next inlines `process.env.NEXT_PUBLIC_…`), as an object
 * (`{url:"https://…",key:"eyJ…"}`, `import.meta.env` replaced by its values), the key possibly behind a fallback
 * (`void 0||"eyJ…"`, `{…}.VITE_X??"eyJ…"`: what `import.meta.env.VITE_X || "…"` becomes once built).
 */
export const URL_THEN_KEY =
  /["'`](https?:\/\/[^"'`\s]{4,200}?)\/?["'`]\s{0,3}[,;]\s{0,3}(?:(?:const|let|var)\s{1,3})?(?:["']?[\w$]{1,40}["']?\s{0,3}[:=]\s{0,3})?(?:(?:void 0|[\w$.]{1,80})\s{0,3}(?:\|\||\?\?)\s{0,3})?["'`](eyJ[\w-]{8,600}\.eyJ[\w-]{8,1500}\.[\w-]{8,1000}|sb_publishable_[\w-]{20,80})["'`]/g;
/**
 * A URL bound to a Supabase-named setting (`VITE_SUPABASE_URL:"…"`, `supabaseUrl="…"`, `PUBLIC_SUPABASE_API_URL`),
 * behind a fallback (`{…}.VITE_SUPABASE_URL||"…"`) or as the first branch of a ternary (`e?"…":"…"`).
 */
export const NAMED_URL = /supabase_?(?:api_?)?url["'`]?\s{0,3}[:=|?]{1,2}\s{0,3}(?:[\w$.!]{1,80}\s{0,3}(?:\|\||\?\?|\?)\s{0,3})?["'`](https?:\/\/[^"'`\s]{4,200}?)\/?["'`]/gi;
/** The other branch of a ternary right after a named URL (`…?"https://a":"https://b"`). */
export const OTHER_BRANCH = /^\s{0,3}:\s{0,3}["'`](https?:\/\/[^"'`\s]{4,200}?)\/?["'`]/;
const MENTIONS_NAMED_URL = /supabase_?(?:api_?)?url/i;
/** An origin alone in a string literal (`"https://db.myapp.io"`, trailing slash allowed): how a build leaves an env URL. */
export const BARE_ORIGIN = /["'`](https?:\/\/[a-z0-9][a-z0-9.-]{0,252}(?::\d{1,5})?)\/?["'`]/gi;
/** A URL with one of Supabase's API paths written in code (`"https://db.myapp.io/rest/v1/"`, a template's head). */
export const SUPABASE_PATH_URL = /(https?:\/\/[a-z0-9][a-z0-9.-]{0,252}(?::\d{1,5})?)\/(?:rest|auth|storage)\/v1(?![\w-])/gi;
/** Hosts whose bare origin is common in bundles and never a Supabase project; `localhost` is the CLI's dev default. */
const NOT_A_CANDIDATE =
  /(?:^|\.)(?:localhost|w3\.org|google\.com|googleapis\.com|gstatic\.com|github\.com|githubusercontent\.com|reactjs\.org|react\.dev|vitejs\.dev|npmjs\.com|unpkg\.com|jsdelivr\.net|cloudflare\.com|sentry\.io|stripe\.com|lovable\.dev|lovable\.app|gpteng\.co|example\.com|schema\.org|supabase\.com|supabase\.co|supabase\.in)$/i;
/** Origins probed per scan to confirm them as Supabase: each costs one request. */
export const MAX_CANDIDATES = 3;
const FROM = /\.from\(\s{0,3}(["'`])([A-Za-z_][\w-]{0,62})\1\s{0,3}\)/g;
const RPC = /\.rpc\(\s{0,3}(["'`])([A-Za-z_]\w{0,62})\1/g;
const API_PATH = /\/(?:rest|auth|storage|functions|realtime|graphql)\/v1(?:\/|$)/;
/** Objects whose `.from("x")` is not Supabase's. */
const NOT_A_CLIENT =
  /^(?:Array|Buffer|Uint8Array|Uint16Array|Uint32Array|Int8Array|Int16Array|Int32Array|Float32Array|Float64Array|Object|Promise|Set|Map|Date|String|Observable|Readable|Stream|Iterator|AsyncIterator|ReadableStream|Blob|Intl|Symbol|Reflect|Temporal|Immutable|List|Seq|rxjs|Rx)$/;
const STORAGE_METHODS =
  /^\s*\)\s*\.\s*(?:upload|download|getPublicUrl|list|createSignedUrl|createSignedUrls|createSignedUploadUrl|uploadToSignedUrl|remove|move|copy|update|info|exists)\s*\(/;
const TABLE_METHODS = /^\s*\)\s*\.\s*(?:select|insert|upsert|delete|update)\s*\(/;

function origin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

function hostedRef(url: string): string | undefined {
  return /^https:\/\/([a-z0-9]{20})\.supabase\.(?:co|in)$/.exec(url)?.[1];
}

class Names {
  private readonly map = new Map<string, NameOrigin>();
  private static readonly rank: Record<NameOrigin, number> = { traffic: 0, bundle: 1, wordlist: 2 };
  add(name: string, from: NameOrigin): void {
    const known = this.map.get(name);
    if (!known || Names.rank[from] < Names.rank[known]) this.map.set(name, from);
  }
  list(): NamedThing[] {
    return [...this.map.entries()].map(([name, from]) => ({ name, origin: from })).sort((a, b) => Names.rank[a.origin] - Names.rank[b.origin]);
  }
}

type ProjectDraft = { url: string; ref?: string; keys: Set<string> };

function projectIn(projects: Map<string, ProjectDraft>, url: string): ProjectDraft {
  let p = projects.get(url);
  if (!p) projects.set(url, (p = { url, ref: hostedRef(url), keys: new Set() }));
  return p;
}

/** Gives each project the anon keys that belong to it; may add the hosted project a key names. */
function pairKeys(projects: Map<string, ProjectDraft>, anonKeys: ReadonlyArray<{ key: string; ref?: string }>): ProjectDraft[] {
  // Keys name their project: an anon JWT carries the ref, so its project is known even without a URL string.
  // A project on a custom domain or self-hosted whose URL stands apart from its key (an env object, another chunk)
  // is the project the key belongs to: the key goes there, and the hosted URL only the key named is not probed twice.
  const project = (url: string) => projectIn(projects, url);
  const explicit = [...projects.values()];
  const keyless = explicit.filter((p) => p.keys.size === 0 && !p.ref);
  for (const { key, ref } of anonKeys) {
    if (!ref || explicit.some((p) => p.keys.has(key))) continue;
    if (explicit.some((p) => p.ref === ref)) project(`https://${ref}.supabase.co`).keys.add(key);
    else if (keyless.length > 0) for (const p of keyless) p.keys.add(key);
    else project(`https://${ref}.supabase.co`).keys.add(key);
  }
  const list = [...projects.values()];
  const unpaired = anonKeys.filter((k) => !k.ref || !list.some((p) => p.ref === k.ref && p.keys.has(k.key)));
  for (const p of list) {
    if (p.keys.size > 0) continue;
    // A project without a key of its own gets the keys that name no project (sb_publishable_, ref-less JWTs).
    for (const { key, ref } of unpaired) if (!ref || ref === p.ref) p.keys.add(key);
  }
  return list;
}

/** Keys (with the positions of their texts) that no project named by URL accounts for. */
type UnexplainedKeys = ReadonlyArray<{ key: string; ref?: string }>;

/**
 * Origins that may be the project of keys no named project accounts for, best first: URLs written with a Supabase API
 * path, then bare origins in the scripts holding such a key (nearest first), then bare origins in other scripts in
 * their order. At most MAX_CANDIDATES; each is confirmed by one request before anything else is sent there.
 */
function findCandidates(texts: readonly TextSource[], keys: UnexplainedKeys, taken: ReadonlySet<string>, exclude: ReadonlySet<string>): SupabaseCandidate[] {
  if (keys.length === 0) return [];
  const scripts = texts.filter((t) => t.kind === 'script' || t.kind === 'inline-script');
  const ranked: Array<{ url: string; rank: number; order: number }> = [];
  let order = 0;
  const consider = (raw: string, rank: number) => {
    const url = origin(raw);
    if (!url || taken.has(url) || exclude.has(url) || NOT_A_CANDIDATE.test(new URL(url).hostname)) return;
    ranked.push({ url, rank, order: order++ });
  };
  for (const { text } of scripts) if (/\/(?:rest|auth|storage)\/v1/.test(text)) for (const m of text.matchAll(SUPABASE_PATH_URL)) consider(m[1]!, 0);
  for (const { text } of scripts) {
    const at = keys.map(({ key }) => text.indexOf(key)).filter((i) => i >= 0);
    for (const m of text.matchAll(BARE_ORIGIN)) {
      // Near a key: ranked by distance (within the same script), else after every script that holds one.
      const distance = at.length ? Math.min(...at.map((i) => Math.abs(i - m.index))) : undefined;
      consider(m[1]!, distance === undefined ? 2 : 1 + Math.min(distance, 1e6) / 1e7);
    }
  }
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order);
  const urls = [...new Set(ranked.map((r) => r.url))].slice(0, MAX_CANDIDATES);
  const replaces = [...new Set(keys.flatMap((k) => (k.ref ? [`https://${k.ref}.supabase.co`] : [])))].filter((url) => !taken.has(url));
  return urls.map((url) => ({ url, keys: [...new Set(keys.map((k) => k.key))], replaces }));
}

/** Supabase facts from texts (bundles, HTML, request captures). Exported for tests; checks use analyzeSupabase. */
export function extractSupabase(texts: readonly TextSource[], exclude: ReadonlySet<string> = new Set()): SupabaseInfo {
  const projects = new Map<string, ProjectDraft>();
  const project = (url: string) => projectIn(projects, url);
  const anonKeys: Array<{ key: string; ref?: string }> = [];
  const tables = new Names();
  const rpcs = new Names();
  const buckets = new Names();

  for (const source of texts) {
    const { text } = source;
    if (source.kind === 'request') {
      // First line is the URL, then "name: value" headers.
      const [url = '', ...headers] = text.split('\n');
      const base = origin(url);
      let path = '';
      try {
        path = new URL(url).pathname;
      } catch {
        /* not a URL */
      }
      if (base && API_PATH.test(path)) {
        const p = project(base);
        for (const line of headers) {
          const m = /^apikey:\s*(\S+)/i.exec(line);
          if (m?.[1] && (m[1].startsWith('sb_publishable_') || supabaseJwtRole(m[1])?.role === 'anon')) p.keys.add(m[1]);
        }
        const rest = /^\/rest\/v1\/(rpc\/)?([A-Za-z_][\w-]{0,62})\/?$/.exec(path);
        if (rest?.[2]) (rest[1] ? rpcs : tables).add(decodeURIComponent(rest[2]), 'traffic');
        const object = /^\/storage\/v1\/object\/(?:(?:public|sign|authenticated|info)\/)?([\w.-]{1,63})\//.exec(path);
        if (object?.[1] && !['list', 'move', 'copy', 'sign', 'upload'].includes(object[1])) buckets.add(object[1], 'traffic');
      }
      continue;
    }
    if (text.includes('supabase.co') || text.includes('supabase.in')) {
      for (const m of text.matchAll(HOSTED)) project(`https://${m[1]}.supabase.co`);
    }
    if (text.includes('eyJ')) {
      for (const m of text.matchAll(JWT)) {
        const claims = supabaseJwtRole(m[0]);
        if (claims?.role === 'anon') anonKeys.push({ key: m[0], ref: claims.ref });
      }
    }
    if (text.includes('sb_publishable_')) for (const m of text.matchAll(PUBLISHABLE)) anonKeys.push({ key: m[0] });
    for (const m of text.matchAll(URL_THEN_KEY)) {
      const base = origin(m[1]!);
      const key = m[2]!;
      if (base && (key.startsWith('sb_publishable_') || supabaseJwtRole(key)?.role === 'anon')) project(base).keys.add(key);
    }
    if (MENTIONS_NAMED_URL.test(text)) {
      for (const m of text.matchAll(NAMED_URL)) {
        const other = OTHER_BRANCH.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 220))?.[1];
        for (const url of [m[1]!, other]) {
          const base = url === undefined ? undefined : origin(url);
          if (base) project(base);
        }
      }
    }
    if (text.includes('.from(')) {
      for (const m of text.matchAll(FROM)) {
        const at = m.index;
        const before = text.slice(Math.max(0, at - 40), at);
        const after = text.slice(at + m[0].length - 1, at + m[0].length + 40);
        const object = /(?<![\w$])([\w$]+)\s*$/.exec(before)?.[1] ?? '';
        if (NOT_A_CLIENT.test(object)) continue;
        if (object === 'storage' || STORAGE_METHODS.test(after)) buckets.add(m[2]!, 'bundle');
        else if (TABLE_METHODS.test(after) || /^[a-z_][a-z0-9_]*$/.test(m[2]!)) tables.add(m[2]!, 'bundle');
      }
    }
    if (text.includes('.rpc(')) for (const m of text.matchAll(RPC)) rpcs.add(m[2]!, 'bundle');
  }

  const named = new Set(projects.keys());
  const list = pairKeys(projects, anonKeys);
  const unexplained = anonKeys.filter(({ key }) => !list.some((p) => named.has(p.url) && p.keys.has(key)));
  const candidates = findCandidates(texts, unexplained, named, exclude);
  // Projects named only by an env-like URL but no key cannot be probed; keep them (the rpc check lists names).
  if (list.length > 0 || candidates.length > 0) {
    for (const name of TABLE_WORDLIST) tables.add(name, 'wordlist');
    for (const name of BUCKET_WORDLIST) buckets.add(name, 'wordlist');
  }
  return {
    projects: list.map((p) => ({ url: p.url, ref: p.ref, keys: [...p.keys] })),
    tables: tables.list(),
    rpcs: rpcs.list(),
    buckets: buckets.list(),
    candidates,
  };
}

const memo = new WeakMap<object, { site: SiteBeforeProbes; info: SupabaseInfo }>();

/** What the site's texts say about Supabase, computed once per site. */
function bundleFacts(site: SiteBeforeProbes): SupabaseInfo {
  const known = memo.get(site.pages);
  if (known && known.site.assets === site.assets && known.site.rendering === site.rendering) return known.info;
  // The site's own origin is never a candidate: the app's pages answer there, not GoTrue.
  const info = extractSupabase(collectTexts(site), new Set([site.origin]));
  memo.set(site.pages, { site, info });
  return info;
}

const confirmedMemo = new WeakMap<object, { size: number; info: SupabaseInfo }>();

/**
 * Supabase facts of a site. Before probes: the projects the site names. Once probes have answered: also the
 * candidate origins whose GoTrue settings answered like Supabase, each standing for the hosted URL only its key named.
 */
export function analyzeSupabase(site: SiteBeforeProbes | Site): SupabaseInfo {
  const info = bundleFacts(site);
  const probes = 'probes' in site ? site.probes : undefined;
  if (!probes || info.candidates.length === 0) return info;
  const known = confirmedMemo.get(probes);
  if (known?.size === probes.size) return known.info;
  const confirmed = info.candidates.filter((c) => looksLikeGoTrueSettings(probes.get(discoveryKey(c))));
  const replaced = new Set(confirmed.flatMap((c) => c.replaces));
  const projects = [...info.projects.filter((p) => !replaced.has(p.url)), ...confirmed.map((c) => ({ url: c.url, keys: c.keys }))];
  const merged = { ...info, projects };
  confirmedMemo.set(probes, { size: probes.size, info: merged });
  return merged;
}

/** Planned requests not answered yet: what a follow-up round adds for a project confirmed after the first round. */
export function unanswered(site: Site, planned: ProbeRequest[]): ProbeRequest[] {
  return planned.filter((probe) => !site.probes.has(probe.key));
}

const discoveryKey = (candidate: SupabaseCandidate) => `supabase-discovery:${candidate.url}`;

/**
 * One read-only request per candidate origin: GET /auth/v1/settings with the key found beside it, as supabase-js
 * would. Every Supabase check plans these (the key makes them one request); what answers like GoTrue becomes a project.
 */
export function discoveryProbes(site: SiteBeforeProbes): ProbeRequest[] {
  return bundleFacts(site).candidates.map((candidate) => ({
    key: discoveryKey(candidate),
    method: 'GET' as const,
    url: `${candidate.url}/auth/v1/settings`,
    headers: supabaseHeaders(candidate.keys[0]!),
  }));
}

/**
 * Whether an answer is GoTrue's public settings (`{"external":{"email":true,…},"disable_signup":false,…}`): what
 * Supabase Auth, hosted or self-hosted, answers there, and an API that merely takes a JWT does not.
 */
export function looksLikeGoTrueSettings(answer: Exchange | undefined): boolean {
  if (!answer || answer.error || answer.status !== 200) return false;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return false;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const { external, disable_signup: disableSignup } = body as Record<string, unknown>;
  return typeof disableSignup === 'boolean' && !!external && typeof external === 'object' && !Array.isArray(external);
}

/** Whether a known Supabase backend could be checked, for the report's coverage. */
export interface SupabaseReachability {
  url: string;
  ref?: string;
  /** True when at least one probe to the project got an HTTP answer (any status). */
  reachable: boolean;
  /** Why not: the network error of the probes (DNS, refused, timeout, address policy), or that none was sent. */
  reason?: string;
}

/**
 * Each Supabase project the site names and whether the scan reached it, from the probes' answers: a project whose
 * every probe failed at the network level (status 0) was found but not checked, which a report must not show as
 * "nothing found".
 */
export function supabaseReachability(site: Site): SupabaseReachability[] {
  const answers = [...site.probes.values()];
  return analyzeSupabase(site).projects.map((project) => {
    const prefix = `${project.url}/`;
    const mine = answers.filter((answer) => answer.url.startsWith(prefix));
    const base = { url: project.url, ...(project.ref ? { ref: project.ref } : {}) };
    if (mine.some((answer) => answer.status !== 0)) return { ...base, reachable: true };
    if (mine.length === 0) {
      const reason = project.keys.length === 0 ? 'no public key found in the site, so no probe was sent' : 'no probe was sent';
      return { ...base, reachable: false, reason };
    }
    const errors = [...new Set(mine.map((answer) => answer.error ?? 'no answer'))];
    return { ...base, reachable: false, reason: errors.slice(0, 3).join('; ') };
  });
}

/** A stable short label for a project in probe keys: its ref, or its host. */
export function projectLabel(project: SupabaseProject): string {
  return project.ref ?? new URL(project.url).host;
}

/** Headers supabase-js sends with the public key; probes send the same, nothing more. */
export function supabaseHeaders(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { apikey: key, Authorization: `Bearer ${key}`, Accept: 'application/json', ...extra };
}

/** A probe as evidence text, keys masked. */
export function describeRequest(method: string, url: string, headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([name, value]) => {
    if (/^apikey$/i.test(name)) return `${name}: ${maskSecret(value)}`;
    if (/^authorization$/i.test(name)) return `${name}: Bearer ${maskSecret(value.replace(/^Bearer\s+/i, ''))}`;
    return `${name}: ${value}`;
  });
  return [`${method} ${url}`, ...lines].join('\n');
}
