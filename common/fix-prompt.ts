// How to fix one finding, written for an AI coding agent that edits the site's code: what to change, where (the
// files and settings of the stack the finding was seen on), and how to verify (the request to repeat and what it
// must answer afterwards). Built from the check's remediation and the finding's own evidence; no model involved.
// The MCP tool explain_finding answers it to agents; the dashboard and the HTML report offer it as 'Copy fix
// prompt', to paste into Lovable, Bolt, v0 or Cursor. It holds no secret value: a finding's evidence is masked
// when the scan records it (engine/scan.ts), and the prompt carries nothing else of the project's.
import type { CheckFamily, Finding, ScanResult } from './scan';

/** Hosting and frameworks recognised from what the scan saw; each adds its own "where" to the explanation. */
export type Stack = 'nextjs' | 'vercel' | 'netlify' | 'express' | 'supabase' | 'firebase';

const STACK_SIGNS: [Stack, RegExp][] = [
  ['nextjs', /x-powered-by:\s*next\.js|\/_next\/|__NEXT_DATA__|x-nextjs-/i],
  ['vercel', /x-vercel-|server:\s*vercel|\.vercel\.app/i],
  ['netlify', /x-nf-request-id|server:\s*netlify|\.netlify\.app/i],
  ['express', /x-powered-by:\s*express/i],
  ['supabase', /\.supabase\.co|\/rest\/v1\/|\/storage\/v1\//i],
  ['firebase', /firebaseio\.com|firestore\.googleapis\.com|firebasestorage|\.firebaseapp\.com/i],
];

/** The stacks whose signs appear in the texts (evidence, URLs) of a scan. */
export function detectStacks(texts: readonly string[]): Stack[] {
  const all = texts.join('\n');
  return STACK_SIGNS.filter(([, sign]) => sign.test(all)).map(([stack]) => stack);
}

/** The texts of a scan that tell its stack: every finding's URL and evidence, and the scanned pages' URLs. */
export function stackTexts(findings: readonly Finding[], pageUrls: readonly string[] = []): string[] {
  return [...pageUrls, ...findings.flatMap((f) => [f.url, f.evidence.request ?? '', f.evidence.response ?? '', f.evidence.match ?? ''])];
}

/** The response header a header check wants, as the line to send. */
const HEADER_FIXES: Record<string, { name: string; value: string }> = {
  'csp-missing': { name: 'Content-Security-Policy', value: "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'" },
  'csp-weak': { name: 'Content-Security-Policy', value: "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'" },
  clickjacking: { name: 'X-Frame-Options', value: 'DENY' },
  'x-content-type-options': { name: 'X-Content-Type-Options', value: 'nosniff' },
  'referrer-policy': { name: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  'permissions-policy': { name: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
  'cross-origin-isolation': { name: 'Cross-Origin-Opener-Policy', value: 'same-origin' },
  hsts: { name: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains' },
};

function headerWhere(header: { name: string; value: string }, stacks: Stack[]): string[] {
  const { name, value } = header;
  const json = JSON.stringify;
  const places: Partial<Record<Stack, string>> = {
    nextjs: `Next.js: in next.config.js (or next.config.ts) add \`async headers() { return [{ source: '/:path*', headers: [{ key: ${json(name)}, value: ${json(value)} }] }]; }\`.`,
    vercel: `Vercel: in vercel.json add \`"headers": [{ "source": "/(.*)", "headers": [{ "key": ${json(name)}, "value": ${json(value)} }] }]\`.`,
    netlify: `Netlify: in netlify.toml add \`[[headers]]\\n  for = "/*"\\n  [headers.values]\\n    ${name} = ${json(value)}\` (or a line in public/_headers).`,
    express: `Express: use the helmet middleware (\`app.use(helmet())\`, it sets ${name}) or \`res.setHeader(${json(name)}, ${json(value)})\` in a middleware before the routes.`,
  };
  const found = stacks.filter((stack) => places[stack]).map((stack) => places[stack]!);
  if (found.length > 0) return found;
  // Stack unknown: the common places, so the agent picks the one its project has.
  return [places.nextjs!, places.vercel!, places.netlify!, places.express!, `nginx: \`add_header ${name} "${value}" always;\` in the server block.`];
}

const SUPABASE_TABLE = /\/rest\/v1\/([A-Za-z0-9_]+)/;

function supabaseWhere(finding: Finding): string[] {
  const table = SUPABASE_TABLE.exec(`${finding.evidence.request ?? ''} ${finding.url}`)?.[1] ?? '<table>';
  if (finding.checkId === 'supabase-service-key') {
    return [
      'Supabase dashboard > Project Settings > API: roll the service_role key, then remove it from every client file (.env entries prefixed NEXT_PUBLIC_ or VITE_, src/lib/supabase.*); only server code (Edge Functions, API routes) may read it, from a non-public environment variable.',
    ];
  }
  if (finding.checkId === 'supabase-bucket-listable') {
    return [
      'Supabase Storage: make the bucket private (Storage > bucket > Edit > Public off) and add policies on storage.objects, e.g. in supabase/migrations/<timestamp>_storage_policies.sql: `create policy "own files" on storage.objects for select using (bucket_id = \'<bucket>\' and auth.uid() = owner);`.',
    ];
  }
  if (finding.checkId === 'supabase-rpc-exposed') {
    return [
      'A new migration in supabase/migrations/: `revoke execute on function public.<function> from anon;` and, if it must stay callable, check auth.uid() inside the function (security invoker).',
    ];
  }
  return [
    `A new migration in supabase/migrations/<timestamp>_rls_${table}.sql (or the Supabase SQL editor):\n` +
      `alter table public.${table} enable row level security;\n` +
      `create policy "${table}: owners read their rows" on public.${table} for select to authenticated using (auth.uid() = user_id);\n` +
      `(adapt user_id to the table's owner column; add insert/update/delete policies the same way).`,
  ];
}

const FAMILY_WHERE: Partial<Record<CheckFamily, (finding: Finding, stacks: Stack[]) => string[]>> = {
  supabase: supabaseWhere,
  firebase: (finding) => [
    finding.checkId === 'firebase-storage-listable'
      ? 'storage.rules: `allow read: if request.auth != null && request.auth.uid == userId;` on the user paths, then `firebase deploy --only storage`.'
      : finding.checkId === 'firebase-rtdb-readable'
        ? 'database.rules.json: `{ "rules": { ".read": false, ".write": false, "users": { "$uid": { ".read": "auth.uid === $uid" } } } }`, then `firebase deploy --only database`.'
        : 'firestore.rules: replace `allow read: if true` with `allow read: if request.auth != null && request.auth.uid == resource.data.ownerId;`, then `firebase deploy --only firestore:rules`.',
  ],
  cookies: (_finding, stacks) => [
    ...(stacks.includes('nextjs')
      ? ['Next.js: where the cookie is set (cookies().set in a route handler or middleware.ts), pass { httpOnly: true, secure: true, sameSite: "lax", path: "/" }.']
      : []),
    ...(stacks.includes('express') || !stacks.includes('nextjs')
      ? ['Express: res.cookie(name, value, { httpOnly: true, secure: true, sameSite: "lax" }); express-session: cookie: { httpOnly: true, secure: true, sameSite: "lax" }.']
      : []),
    'Supabase SSR (@supabase/ssr): createServerClient(..., { cookieOptions: { secure: true, sameSite: "lax" } }).',
  ],
  cors: (_finding, stacks) => [
    ...(stacks.includes('express') || stacks.length === 0
      ? ['Express: app.use(cors({ origin: ["https://your-app.example"], credentials: true })) instead of reflecting the Origin header or origin: true.']
      : []),
    ...(stacks.includes('nextjs') || stacks.length === 0
      ? [
          'Next.js: in the route handler or middleware.ts, set Access-Control-Allow-Origin only for an allow-list of origins; never echo request.headers.get("origin") and never send "null".',
        ]
      : []),
    'Supabase Edge Functions: the corsHeaders object must name your site, not "*", when requests carry credentials.',
  ],
  'exposed-files': (finding, stacks) => [
    `Remove the file from what is deployed: delete it from public/ (or static/, dist/), and ignore it in the build (.gitignore, ${stacks.includes('vercel') ? '.vercelignore' : stacks.includes('netlify') ? 'the publish directory of netlify.toml' : '.vercelignore or the publish directory'}). Path found: ${pathOf(finding.url)}.`,
    'If it held secrets (an .env, a config, a git history), rotate every one of them at its provider: they must be treated as public now.',
    'nginx: `location ~ /\\.(?!well-known) { deny all; }` keeps dot-files out for good.',
  ],
  secrets: () => [
    'Move the secret to a server-side environment variable (no NEXT_PUBLIC_, VITE_ or REACT_APP_ prefix, which put it in the browser bundle) and call the provider from a server route or an Edge Function.',
    'Rotate the key at its provider now: the old one was public.',
  ],
  disclosure: (_finding, stacks) => [
    ...(stacks.includes('express') || stacks.length === 0
      ? ["Express: app.disable('x-powered-by'); an error handler that answers a generic message in production (NODE_ENV=production)."]
      : []),
    ...(stacks.includes('nextjs') || stacks.length === 0
      ? ['Next.js: poweredByHeader: false in next.config.js; do not return error.stack or error.message from route handlers.']
      : []),
    'Web server: hide version numbers (nginx `server_tokens off;`), turn directory listing off (`autoindex off;`), remove comments with credentials or internal URLs from the HTML.',
  ],
  api: (_finding, stacks) => [
    ...(stacks.includes('nextjs') || stacks.length === 0
      ? [
          'Next.js: check the session at the top of the route handler (app/api/.../route.ts) or in middleware.ts with a matcher for the API and admin paths; answer 401 without one.',
        ]
      : []),
    ...(stacks.includes('express') || stacks.length === 0 ? ['Express: put an authentication middleware before the router (app.use("/api", requireAuth, apiRouter)).'] : []),
    'GraphQL: introspection: false in production (Apollo Server option); API docs (/docs, /swagger) behind sign-in or off in production.',
  ],
  tokens: () => [
    'Where tokens are signed and verified (lib/auth.*, the API middleware): sign with a random secret of 32+ bytes from an environment variable, set an expiry (exp), and verify with an explicit algorithm list (jose: jwtVerify(token, key, { algorithms: ["HS256"] })).',
  ],
  frameworks: () => ['package.json: upgrade the framework to a patched release (npm install <package>@latest, or the fixed version named above), commit the lockfile, redeploy.'],
  libraries: () => [
    'package.json or the <script src> tag that loads it: upgrade the library to a fixed version, or load it from your own bundle instead of a third-party host; add integrity="sha384-…" crossorigin="anonymous" to remaining CDN tags.',
  ],
  forms: () => [
    'The form and its handler: post to an https:// action, serve the page over HTTPS only, and check a CSRF token (or SameSite=Lax session cookies plus an Origin check) in the handler.',
  ],
  active: () => [
    'The handler of the parameter shown in the evidence: encode output for its HTML context (React does it unless dangerouslySetInnerHTML is used), and only redirect to relative paths or an allow-list of hosts.',
  ],
};

function whereToChange(finding: Finding, stacks: Stack[]): string[] {
  const header = HEADER_FIXES[finding.checkId];
  if (header) return headerWhere(header, stacks);
  if (finding.family === 'transport') {
    return [
      'Hosting: turn on "Force HTTPS" / automatic HTTPS redirect (Vercel and Netlify do by default on their domains; check custom domains), renew the certificate, and load every script, image and API call over https://.',
      'Express behind a proxy: redirect when req.headers["x-forwarded-proto"] !== "https".',
    ];
  }
  const where = FAMILY_WHERE[finding.family];
  return where ? where(finding, stacks) : ['Where the site sets this up (its server code or hosting configuration).'];
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/** The request behind the evidence, as a curl command, or null when the evidence holds none. */
export function curlOf(finding: Finding): string | null {
  // The finding's URL and evidence come from the scanned site: what does not parse gives no command, never an exception.
  try {
    return curlFrom(finding);
  } catch {
    return null;
  }
}

function curlFrom(finding: Finding): string | null {
  const lines = (finding.evidence.request ?? '').split('\n').filter((line) => line.trim());
  const first = /^([A-Z]+)\s+(\S+)(?:\s+HTTP\/[\d.]+)?$/.exec(lines[0] ?? '');
  if (!first) return null;
  const [, method, target] = first as unknown as [string, string, string];
  let url = target;
  const headers: string[] = [];
  for (const line of lines.slice(1)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    const name = line.slice(0, at).trim();
    const value = line.slice(at + 1).trim();
    if (name.toLowerCase() === 'host') {
      if (url.startsWith('/')) url = `${new URL(finding.url).protocol}//${value}${url}`;
    } else headers.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (url.startsWith('/')) url = new URL(url, finding.url).toString();
  if (!/^https?:\/\//i.test(url)) return null;
  const verb = method === 'GET' ? '' : method === 'HEAD' ? '-I ' : `-X ${method} `;
  return `curl -s -i ${verb}${headers.length ? `${headers.join(' ')} ` : ''}${shellQuote(url)}`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** What the repeated request must answer once the fix is deployed. */
function expectedAnswer(finding: Finding): string {
  const header = HEADER_FIXES[finding.checkId];
  if (header) return `the answer carries the header \`${header.name}: ${header.value}\` (or a stricter value).`;
  switch (finding.family) {
    case 'supabase':
      return finding.checkId === 'supabase-service-key'
        ? 'the old service_role key is refused (401), and no client file contains the new one.'
        : 'no rows: 401 or 403, or 200 with `[]` and a Content-Range ending in `/0`.';
    case 'firebase':
      return '401 or 403 ("Permission denied"), no data.';
    case 'exposed-files':
      return '404 (or 403), and the body no longer holds the file.';
    case 'cors':
      return 'Access-Control-Allow-Origin is absent or names only your own site (never the Origin sent, never "null"), with Access-Control-Allow-Credentials only for allowed origins.';
    case 'cookies':
      return 'the Set-Cookie line of that cookie carries HttpOnly, Secure and SameSite=Lax (or Strict), and no Domain wider than your host.';
    case 'api':
      return '401 or 403 without credentials (no data, no schema).';
    case 'disclosure':
      return `the answer no longer contains ${finding.evidence.match ? `\`${finding.evidence.match.slice(0, 120)}\`` : 'the disclosed text'}.`;
    case 'transport':
      return 'http:// answers a 301/308 redirect to https://, and https:// answers with a valid certificate and Strict-Transport-Security.';
    default:
      return `the answer no longer shows ${finding.evidence.match ? `\`${finding.evidence.match.slice(0, 120)}\`` : 'what the evidence shows'}.`;
  }
}

function evidenceBlock(finding: Finding): string {
  const parts = [
    finding.evidence.request ? `Request:\n${finding.evidence.request}` : '',
    finding.evidence.response ? `Response:\n${finding.evidence.response.slice(0, 1_500)}` : '',
    finding.evidence.match ? `Match: ${finding.evidence.match.slice(0, 500)}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('\n') : '(no request recorded for this finding)';
}

/** The explanation, as the sections an agent reads in order. */
export interface Explanation {
  what: string;
  where: string[];
  verify: string;
  text: string;
}

/** Who confirms the fix: an agent through MCP re-runs the scan_url tool; a person re-checks in vibeeval. */
export type FixReader = 'agent' | 'person';

/** Explains one finding of a scan of `scanUrl`, given the stacks detected on that scan. */
export function explainFinding(finding: Finding, stacks: Stack[], scanUrl: string, reader: FixReader = 'agent'): Explanation {
  const what = `${finding.detail}\n\nFix: ${finding.remediation}`;
  const where = whereToChange(finding, stacks);
  const curl = curlOf(finding);
  const rerun =
    reader === 'agent'
      ? `Then re-run the scan_url tool with url ${scanUrl}: finding ${finding.fingerprint} must be gone.`
      : `Once the change is live, I will confirm it in vibeeval (Check again on this finding, or a new scan of ${scanUrl}).`;
  const verify = curl
    ? `Repeat the request (values shown as masked in the evidence must be replaced by the real ones):\n${curl}\nAfter the fix it must answer: ${expectedAnswer(finding)}\n${rerun}`
    : `After the fix: ${expectedAnswer(finding)}\n${rerun}`;
  const text = [
    `# ${finding.title} (${finding.severity}, ${finding.checkId})`,
    `Found at: ${finding.url}`,
    `Stack seen: ${stacks.length ? stacks.join(', ') : 'not recognised'}`,
    '',
    '## What to change',
    what,
    '',
    '## Where',
    ...where.map((line) => `- ${line}`),
    '',
    '## How to verify',
    verify,
    '',
    '## Evidence',
    evidenceBlock(finding),
    ...(finding.references.length ? ['', '## References', ...finding.references.map((ref) => `- ${ref}`)] : []),
  ].join('\n');
  return { what, where, verify, text };
}

/** The stacks a scan's result shows (its findings' and pages' URLs and evidence). */
export function resultStacks(result: Pick<ScanResult, 'findings' | 'pages'>): Stack[] {
  return detectStacks(
    stackTexts(
      result.findings,
      result.pages.map((page) => page.url),
    ),
  );
}

/**
 * 'Copy fix prompt': one finding of a scan as a request to an AI coding tool, ready to paste: what to change, where
 * in the stack the scan saw, and how to check it.
 */
export function fixPrompt(result: Pick<ScanResult, 'findings' | 'pages' | 'target'>, finding: Finding): string {
  const { text } = explainFinding(finding, resultStacks(result), result.target.url, 'person');
  return [`Please fix this security weakness that vibeeval found in my app at ${result.target.url}. Change only what the fix needs.`, '', text].join('\n');
}
