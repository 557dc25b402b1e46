import type { CheckFamily, Confidence, Evidence, OwaspCategory, ScanOptions, Severity } from '../common/scan';

/** Response headers in arrival order, names lower-cased; repeated headers (set-cookie) stay separate. */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

/** The TLS certificate the server presented, when the URL was https. */
export interface TlsInfo {
  protocol: string | null;
  authorized: boolean;
  /** Node's verification error code, e.g. CERT_HAS_EXPIRED, DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID. */
  authorizationError: string | null;
  subject: string;
  issuer: string;
  subjectAltNames: string[];
  validFrom: string;
  validTo: string;
}

/** One HTTP request and its answer, after following redirects (each hop recorded). */
export interface Exchange {
  method: string;
  /** The URL asked for. */
  url: string;
  requestHeaders: Readonly<Record<string, string>>;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  redirects: ReadonlyArray<{ url: string; status: number; location: string; headers: HeaderList }>;
  /** 0 when no response came (see error). */
  status: number;
  headers: HeaderList;
  contentType: string;
  /** Decoded text body, up to the size cap; empty for binary types. */
  body: string;
  bodyBytes: number;
  truncated: boolean;
  timingMs: number;
  /** The certificate of the final hop, for https. */
  tls?: TlsInfo;
  /** Network-level failure: DNS, refused, timeout, address policy, too many redirects. */
  error?: string;
}

export interface ParsedScript {
  /** Absolute URL of an external script. */
  src?: string;
  inline?: string;
  integrity?: string;
  crossorigin?: string;
  type?: string;
  /** Its data-site attribute (the site token of vibeeval's own monitoring script). */
  site?: string;
}

export interface ParsedForm {
  /** Absolute URL the form submits to. */
  action: string;
  method: string;
  inputs: Array<{ name: string; type: string; value?: string }>;
}

/** What the HTML parser keeps of a page: enough for every check, small enough for thousands of pages. */
export interface ParsedHtml {
  title?: string;
  /** Absolute URLs of <a href> and <area href>. */
  links: string[];
  scripts: ParsedScript[];
  stylesheets: Array<{ href: string; integrity?: string; crossorigin?: string }>;
  /** Absolute URLs of passive and active subresources (img, iframe, media, object, embed, link, script, form action) for mixed content. */
  subresources: Array<{ tag: string; url: string }>;
  forms: ParsedForm[];
  comments: string[];
  /** <meta http-equiv> values, names lower-cased. */
  metaHttpEquiv: Array<{ name: string; content: string }>;
  /** <meta name=...> values, e.g. generator. */
  metaNames: Array<{ name: string; content: string }>;
}

export interface Page {
  url: string;
  depth: number;
  source: 'start' | 'link' | 'sitemap' | 'robots' | 'render';
  exchange: Exchange;
  /** Present when the answer was HTML. */
  html?: ParsedHtml;
}

/** A script, stylesheet or source map referenced by the pages. */
export interface Asset {
  url: string;
  kind: 'script' | 'stylesheet' | 'sourcemap';
  /** The page (or script, for a source map) that referenced it. */
  referrer: string;
  exchange: Exchange;
}

/** What a headless browser saw while loading the pages. */
export interface RenderResult {
  status: 'done' | 'skipped' | 'failed';
  reason?: string;
  browser?: string;
  /** Same-origin routes seen at run time (links in the rendered DOM, history changes). */
  routes: string[];
  requests: Array<{ url: string; method: string; resourceType: string; status?: number; requestHeaders?: Record<string, string> }>;
  cookies: Array<{ name: string; value: string; domain: string; path: string; secure: boolean; httpOnly: boolean; sameSite: string }>;
  storage: Array<{ origin: string; kind: 'local' | 'session'; key: string; value: string }>;
  consoleErrors: string[];
  /**
   * Rendered pages the app sent to a sign-in page (its final URL, or a route it set by the history API), by URL: the
   * status of the page's first answer and where it went. Absent where nothing was rendered.
   */
  loginRedirects?: Array<{ url: string; status: number; redirectedTo: string }>;
}

/** A request a check asks retrieval to make; executed read-only (GET, HEAD or OPTIONS) unless the scan is active. */
export interface ProbeRequest {
  /** Unique within the scan; the check finds the answer under this key. */
  key: string;
  method: 'GET' | 'HEAD' | 'OPTIONS' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Keep the body even when it is not text (e.g. .DS_Store). */
  binary?: boolean;
  /** Do not follow redirects (open-redirect and HTTPS redirection probes look at the Location header). */
  noRedirect?: boolean;
  /**
   * A POST that only reads (Supabase Storage's list call, a GraphQL query sent as POST where GET is refused): sent in
   * passive scans too. Every other POST waits for an active scan.
   */
  readOnly?: boolean;
  /**
   * Sent as the scan's test account of this index (a signed-in scan): retrieval signs the account in to the Supabase
   * project the URL names, with the probe's `apikey`, and sends its access token as the bearer instead of the key.
   * Without such an account, or when it could not sign in, the answer is an exchange with status 0 and an error.
   */
  as?: number;
  /**
   * With `as`: the account signs in by Firebase Auth with this web API key, and its ID token goes out as the bearer
   * (Firestore) or as the `auth` query parameter (the Realtime Database's REST API). Without it and without an
   * `apikey` header, an `as` probe carries the account's credential for the site's own origin and API.
   */
  firebase?: { apiKey: string; tokenIn: 'bearer' | 'auth-param' };
}

/** A test account of a signed-in scan as checks see it: never its password or tokens. */
export interface SiteAccount {
  login: string;
  /** Whether it signed in (known once the probes ran). */
  signedIn: boolean;
  /** The user id its sign-in returned (Supabase `user.id`). */
  userId?: string;
  /** Active scans: the one account the scan creates itself where sign-up is open (listed after the given accounts). */
  throwaway?: boolean;
}

/** Everything retrieved about one site; the input of every check. */
export interface Site {
  /** The URL the user gave, normalised. */
  target: string;
  /** The start page after redirects (its origin is the scan's origin). */
  finalUrl: string;
  origin: string;
  options: ScanOptions;
  /** The start page, as fetched over HTTP. */
  root: Exchange;
  pages: Page[];
  assets: Asset[];
  robots?: Exchange;
  sitemap?: Exchange;
  /** The answer to a path that cannot exist: the baseline against which exposed-file probes are compared. */
  notFound?: Exchange;
  rendering: RenderResult;
  /** A signed-in scan's test accounts, in the order given (absent or empty: an anonymous scan). */
  accounts?: SiteAccount[];
  /** Answers to the probes the checks planned, by key. */
  probes: ReadonlyMap<string, Exchange>;
}

/** The part of a site known before probes run: what check planners see. */
export type SiteBeforeProbes = Omit<Site, 'probes'>;

/** A finding as a check reports it; the runner adds metadata and the fingerprint. */
export interface FindingDraft {
  url: string;
  detail: string;
  evidence: Evidence;
  /** Overrides the check's default when the finding itself decides it (a service_role key is critical, an anon key info). */
  severity?: Severity;
  confidence?: Confidence;
  title?: string;
  /** What distinguishes this finding from others of the same check at the same URL (a header name, a key's hash). */
  key?: string;
}

export interface CheckMeta {
  id: string;
  family: CheckFamily;
  title: string;
  /** Default severity of a finding. */
  severity: Severity;
  confidence: Confidence;
  cwe: number | null;
  owasp: OwaspCategory;
  /** What the check looks for, one or two sentences. */
  description: string;
  remediation: string;
  references: string[];
}

export interface CheckDefinition extends CheckMeta {
  /** Requests this check needs beyond the crawl; pure. */
  probes?: (site: SiteBeforeProbes) => ProbeRequest[];
  /**
   * Requests that depend on the answers to the first round of probes (the GET operations an OpenAPI document lists);
   * sent once, in a second round, under the same read-only rules. Pure.
   */
  followUpProbes?: (site: Site) => ProbeRequest[];
  /** False when the check does not apply to this site (no HTTPS, no forms, not active); it then neither passes nor fails. */
  appliesTo?: (site: Site) => boolean;
  /** Pure function over retrieved data. */
  run: (site: Site) => FindingDraft[];
}

/** Declares a check: all its metadata and logic in one place. */
export function defineCheck(check: CheckDefinition): CheckDefinition {
  return check;
}

export type { CheckFamily, Confidence, Evidence, OwaspCategory, ScanOptions, Severity };
