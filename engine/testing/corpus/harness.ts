// Serves one corpus app on 127.0.0.1, scans it with the engine as a user would (passive, default options), and
// matches the findings against the app's labels. Every server the app runs (the app and its stand-ins) counts the
// requests that could write, so a scan that sends one is caught.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server as NetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SEVERITY_RANK, type Finding, type ScanOptions } from '../../../common/scan';
import { scan } from '../../scan';
import type { HostResolver } from '../../retrieval/address-policy';
import { isLoginUrl } from '../../retrieval/sign-in-pages';
import { FIREBASE_CERT_NAMES, isFirebaseAuthCall, isFirebaseHost, startFirebaseStandIn, type FirebaseStandIn } from '../firebase-stand-in';
import { isAuthCall, isSignUpCall } from '../gotrue-stand-in';
import { startPostgrestStandIn, type PostgrestStandIn } from '../postgrest-stand-in';
import type { CorpusApp, CorpusContext, CorpusHandler, CorpusResponse, ExpectedFinding } from './types';

/** A request that could change data: its method is not GET, HEAD or OPTIONS and it is not an allowlisted read. */
export interface WriteRequest {
  server: 'app' | 'supabase' | 'firebase';
  method: string;
  url: string;
}

/**
 * POSTs that only read: Supabase Storage's list call (`POST /storage/v1/object/list/<bucket>`) takes its prefix and
 * limit in a JSON body and returns names; there is no GET equivalent.
 */
const READ_ONLY_POSTS: RegExp[] = [/^\/storage\/v1\/object\/list\/[^/?]+\/?(\?.*)?$/];

/** Whether a request counts as a write. */
export function isWrite(method: string, url: string): boolean {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS') return false;
  return !(m === 'POST' && READ_ONLY_POSTS.some((pattern) => pattern.test(url)));
}

/**
 * The Supabase stand-in's requests that count as writes for this app: every write, except the sign-in, refresh and
 * sign-out of a signed-in or active app, and an active app's first sign-up (the one throwaway account it may create).
 */
export function supabaseWrites(app: Pick<CorpusApp, 'accounts' | 'active'>, requests: ReadonlyArray<{ method: string; url: string }>): WriteRequest[] {
  const sessions = Boolean(app.accounts || app.active);
  let signUpsAllowed = app.active ? 1 : 0;
  return requests
    .filter((r) => {
      if (!isWrite(r.method, r.url)) return false;
      if (isSignUpCall(r.method, r.url)) return signUpsAllowed-- <= 0;
      return !(sessions && isAuthCall(r.method, r.url));
    })
    .map((r) => ({ server: 'supabase' as const, method: r.method, url: r.url }));
}

/**
 * What a well-configured production app sends on every answer, so an app only shows the weaknesses it was built
 * with. The CSP names the Supabase stand-in for connect-src: a real app allows its project's URL the same way.
 */
export function baselineHeaders(ctx: CorpusContext): Record<string, string> {
  const connect = ["'self'", ctx.supabaseUrl].filter(Boolean).join(' ');
  return {
    'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src ${connect}; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'`,
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/** The content type a fixed answer gets when the app does not name one. */
export function defaultContentType(path: string, body: string): string {
  if (body.trimStart().startsWith('<')) return 'text/html; charset=utf-8';
  const pathname = path.split('?')[0]!;
  if (/\.(m?js|cjs)$/.test(pathname)) return 'application/javascript; charset=utf-8';
  if (/\.css$/.test(pathname)) return 'text/css; charset=utf-8';
  try {
    JSON.parse(body);
    return 'application/json; charset=utf-8';
  } catch {
    // Dotfiles, logs and the like: what a static file server sends for an unknown extension.
    return 'text/plain; charset=utf-8';
  }
}

function sendFixed(req: IncomingMessage, res: ServerResponse, path: string, answer: CorpusResponse, baseline: Record<string, string>): void {
  const headers: Record<string, string | string[]> = answer.bareHeaders ? {} : { ...baseline };
  headers['content-type'] = answer.contentType ?? defaultContentType(path, answer.body);
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['content-length'] = String(Buffer.byteLength(answer.body));
  res.writeHead(answer.status ?? 200, headers);
  res.end(req.method === 'HEAD' ? undefined : answer.body);
}

type Routes = Record<string, CorpusResponse | CorpusHandler>;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

function appHandler(routes: Routes, baseline: Record<string, string>, writes: WriteRequest[]): Listener {
  return (req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    if (isWrite(method, url)) writes.push({ server: 'app', method, url });
    req.resume();
    const path = url.split('?')[0]!;
    // '*' answers every other path: the rewrite to index.html that SPA hosts (Vercel, Netlify) are set up with.
    const route = routes[url] ?? routes[path] ?? routes['*'];
    if (route === undefined) {
      sendFixed(req, res, path, { status: 404, body: 'Not Found', contentType: 'text/plain; charset=utf-8' }, baseline);
    } else if (typeof route === 'function') {
      // Handlers start from the same baseline; they may remove or replace any header.
      for (const [name, value] of Object.entries(baseline)) res.setHeader(name, value);
      route(req, res);
    } else {
      sendFixed(req, res, path, route, baseline);
    }
  };
}

interface CorpusCertificates {
  key: string;
  cert: string;
  ca: string;
  /** A certificate from the same CA for the Firebase hosts (FIREBASE_CERT_NAMES), served by the Firebase stand-in. */
  firebase: { key: string; cert: string };
}

let certCache: CorpusCertificates | undefined;

/**
 * A throwaway CA (made once per process with openssl), a 90-day certificate for 127.0.0.1 signed by it, and one for
 * the Firebase hosts. The CA is trusted only by the scans the corpus runs (ScanHooks.trustedCa).
 */
export function corpusCertificates(): CorpusCertificates {
  if (certCache) return certCache;
  const dir = mkdtempSync(join(tmpdir(), 'vibeeval-corpus-tls-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '365', '-subj', '/CN=vibeeval corpus CA');
    run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'site.key', '-out', 'site.csr', '-subj', '/CN=127.0.0.1');
    writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n');
    // 90 days, like Let's Encrypt: far from the tls-certificate check's renewal window.
    run('x509', '-req', '-in', 'site.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'site.pem', '-days', '90', '-extfile', 'ext.cnf');
    run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'firebase.key', '-out', 'firebase.csr', '-subj', '/CN=firestore.googleapis.com');
    writeFileSync(join(dir, 'firebase.cnf'), `subjectAltName=${FIREBASE_CERT_NAMES.map((name) => `DNS:${name}`).join(',')}\nbasicConstraints=CA:FALSE\n`);
    run('x509', '-req', '-in', 'firebase.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'firebase.pem', '-days', '90', '-extfile', 'firebase.cnf');
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    certCache = { key: read('site.key'), cert: read('site.pem'), ca: read('ca.pem'), firebase: { key: read('firebase.key'), cert: read('firebase.pem') } };
    return certCache;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An app listening on 127.0.0.1, with its stand-ins. */
export interface ServedApp {
  ctx: CorpusContext;
  /** The CA to trust, for apps served over HTTPS or with the Firebase stand-in. */
  ca?: string;
  /** Maps the Firebase hosts to the Firebase stand-in, for apps that declared `firebase` (the scan's hook). */
  resolveHost?: HostResolver;
  /** The ID and refresh tokens the Firebase stand-in issued, for apps that declared `firebase`. */
  firebaseTokens?: () => string[];
  /** Requests the Firebase stand-in received, for apps that declared `firebase`. */
  firebaseRequests?: () => Array<{ host: string; method: string; url: string }>;
  /** Write requests seen so far by any of the app's servers. */
  writes: () => WriteRequest[];
  /** Sign-in, refresh and sign-out calls the Supabase stand-in received, and the tokens it issued (signed-in apps). */
  supabaseAuth?: () => { calls: number; tokens: string[] };
  /** Sign-ups the Supabase stand-in received (POST /auth/v1/signup), and the accounts they created. */
  supabaseSignUps?: () => { calls: number; created: Array<{ id: string; email: string; password: string }> };
  close: () => Promise<void>;
}

async function listen(server: NetServer): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** Starts an app's stand-ins, then the app on a free port (its routes see the stand-ins' URLs). */
export async function serveApp(app: CorpusApp): Promise<ServedApp> {
  let supabase: PostgrestStandIn | undefined;
  let firebase: FirebaseStandIn | undefined;
  // Chromium resolves names itself: a rendered page would go to Google, not to the stand-in.
  if (app.firebase && app.render) throw new Error(`${app.id}: an app with the Firebase stand-in is scanned without rendering (render: false)`);
  const appWrites: WriteRequest[] = [];
  // The routes need the app's own origin, known only once it listens: the listener is set right after.
  let listener: Listener = (_req, res) => res.writeHead(503).end();
  const tls = app.tls ? corpusCertificates() : undefined;
  const closeStandIns = async () => {
    await supabase?.close();
    await firebase?.close();
  };
  const server = tls ? createHttpsServer({ key: tls.key, cert: tls.cert }, (req, res) => listener(req, res)) : createServer((req, res) => listener(req, res));
  try {
    if (app.supabase) supabase = await startPostgrestStandIn(app.supabase);
    if (app.firebase) firebase = await startFirebaseStandIn(app.firebase, corpusCertificates().firebase);
    const firebasePort = firebase?.port;
    const port = await listen(server);
    const ctx: CorpusContext = { origin: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, supabaseUrl: supabase?.url };
    listener = appHandler(app.routes(ctx), baselineHeaders(ctx), appWrites);
    return {
      ctx,
      ca: tls || firebase ? corpusCertificates().ca : undefined,
      firebaseRequests: firebase ? () => [...firebase!.requests] : undefined,
      supabaseAuth: supabase ? () => ({ calls: supabase!.authCalls().length, tokens: supabase!.issuedTokens() }) : undefined,
      supabaseSignUps: supabase ? () => ({ calls: supabase!.signUps().length, created: supabase!.signedUpUsers() }) : undefined,
      resolveHost: firebasePort === undefined ? undefined : (hostname) => (isFirebaseHost(hostname) ? { address: '127.0.0.1', port: firebasePort } : undefined),
      firebaseTokens: firebase ? () => firebase!.tokens() : undefined,
      writes: () => [
        // The sign-in of a signed-in app's own login API or form (a POST to its login route) is allowed too.
        ...appWrites.filter((w) => !(app.accounts && w.method === 'POST' && isLoginUrl(`${ctx.origin}${w.url}`))),
        // A signed-in app's sign-in, refresh and sign-out are allowed, and an active app's one sign-up; nothing else.
        ...supabaseWrites(app, supabase?.requests ?? []),
        ...(firebase?.nonReads() ?? [])
          .filter((r) => !(app.accounts && isFirebaseAuthCall(r.host, r.url)))
          .map((r) => ({ server: 'firebase' as const, method: r.method, url: `https://${r.host}${r.url}` })),
      ],
      close: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await closeStandIns();
      },
    };
  } catch (error) {
    server.close();
    await closeStandIns();
    throw error;
  }
}

/** Whether a finding satisfies a label. */
export function satisfies(finding: Finding, label: ExpectedFinding): boolean {
  if (finding.checkId !== label.checkId) return false;
  if (label.path !== undefined && !finding.url.includes(label.path)) return false;
  return SEVERITY_RANK[finding.severity] >= SEVERITY_RANK[label.minSeverity ?? 'low'];
}

/** Whether a finding is about a labelled weakness (same check and page), whatever its severity. */
export function aboutLabel(finding: Finding, labels: readonly ExpectedFinding[]): boolean {
  return labels.some((label) => finding.checkId === label.checkId && (label.path === undefined || finding.url.includes(label.path)));
}

export const isMediumOrAbove = (finding: Finding): boolean => SEVERITY_RANK[finding.severity] >= SEVERITY_RANK.medium;

/** One app's scan, judged against its labels. */
export interface AppResult {
  app: CorpusApp;
  /** Labels some finding satisfied. */
  found: ExpectedFinding[];
  missed: ExpectedFinding[];
  /** Findings at medium or above that no label is about. */
  falsePositives: Finding[];
  /** Findings at medium or above about a label. */
  truePositives: Finding[];
  findings: Finding[];
  writes: WriteRequest[];
  /** Sign-ups the Supabase stand-in received (an active scan may send one). */
  signUps: number;
  ms: number;
  /** The scan could not run (the app's labels all count as missed). */
  error?: string;
  warnings: string[];
  /** How each test account's sign-in went (apps scanned signed in). */
  signIns?: Array<{ account: string; signedIn: boolean; method?: string; reason?: string }>;
}

/** Judges findings against an app's labels. */
export function judge(app: CorpusApp, findings: Finding[]): Pick<AppResult, 'found' | 'missed' | 'falsePositives' | 'truePositives'> {
  const found = app.expect.filter((label) => findings.some((finding) => satisfies(finding, label)));
  const missed = app.expect.filter((label) => !found.includes(label));
  const serious = findings.filter(isMediumOrAbove);
  return {
    found,
    missed,
    truePositives: serious.filter((finding) => aboutLabel(finding, app.expect)),
    falsePositives: serious.filter((finding) => !aboutLabel(finding, app.expect)),
  };
}

export interface ScanAppOptions {
  /** Browser for apps that render; defaults to the engine's own lookup. */
  chromiumPath?: string;
  /** Overrides of the scan's options (the corpus uses the defaults). */
  scanOptions?: Partial<ScanOptions>;
}

/** Serves an app, scans it passively with the default options, and judges the result. */
export async function scanApp(app: CorpusApp, options: ScanAppOptions = {}): Promise<AppResult> {
  const t0 = performance.now();
  const served = await serveApp(app);
  try {
    const result = await scan(
      `${served.ctx.origin}/`,
      { ...options.scanOptions, render: Boolean(app.render), ...(app.active ? { active: true } : {}) },
      {
        addressPolicy: { allowPrivate: true },
        chromiumPath: app.render ? options.chromiumPath : null,
        trustedCa: served.ca ? [served.ca] : undefined,
        resolveHost: served.resolveHost,
        accounts: app.accounts,
      },
    );
    return {
      app,
      ...judge(app, result.findings),
      findings: result.findings,
      writes: served.writes(),
      signUps: served.supabaseSignUps?.().calls ?? 0,
      ms: Math.round(performance.now() - t0),
      warnings: result.warnings,
      signIns: result.coverage?.signIns,
    };
  } catch (error) {
    const message = (error as Error).message;
    return {
      app,
      found: [],
      missed: [...app.expect],
      truePositives: [],
      falsePositives: [],
      findings: [],
      writes: served.writes(),
      signUps: served.supabaseSignUps?.().calls ?? 0,
      ms: Math.round(performance.now() - t0),
      error: message,
      warnings: [],
    };
  } finally {
    await served.close();
  }
}
