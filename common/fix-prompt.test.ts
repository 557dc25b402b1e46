import { describe, expect, it } from 'vitest';
import type { CheckFamily, Finding } from './scan';
import { CHECK_FAMILIES } from './scan';
import { curlOf, detectStacks, explainFinding, fixPrompt, stackTexts, type Stack } from './fix-prompt';

const SITE = 'https://shop.example.com/';

function finding(init: Partial<Finding> & Pick<Finding, 'checkId' | 'family'>): Finding {
  return {
    fingerprint: 'a1b2c3d4e5f60718',
    title: `Title of ${init.checkId}`,
    severity: 'high',
    confidence: 'high',
    cwe: 200,
    owasp: 'A02',
    url: SITE,
    detail: `Detail of ${init.checkId}.`,
    evidence: { request: `GET ${SITE}` },
    remediation: `Remediation of ${init.checkId}.`,
    references: ['https://example.org/ref'],
    ...init,
  };
}

interface Row {
  name: string;
  finding: Finding;
  stacks: Stack[];
  /** Texts each section must hold. */
  where: string[];
  verify: string[];
}

const TABLE: Row[] = [
  {
    name: 'supabase table readable: an RLS migration for that table, and the request must return no rows',
    finding: finding({
      checkId: 'supabase-table-readable',
      family: 'supabase',
      url: 'https://abc.supabase.co/rest/v1/profiles',
      evidence: { request: 'HEAD https://abc.supabase.co/rest/v1/profiles?select=*\napikey: eyJ…(masked)\nPrefer: count=exact' },
    }),
    stacks: ['supabase'],
    where: ['supabase/migrations/', 'alter table public.profiles enable row level security;', 'auth.uid() = user_id'],
    verify: ["curl -s -i -I -H 'apikey: eyJ…(masked)' -H 'Prefer: count=exact' 'https://abc.supabase.co/rest/v1/profiles?select=*'", 'Content-Range ending in `/0`'],
  },
  {
    name: 'firebase firestore readable: firestore.rules and a deploy',
    finding: finding({
      checkId: 'firebase-firestore-readable',
      family: 'firebase',
      evidence: { request: 'GET https://firestore.googleapis.com/v1/projects/p/databases/(default)/documents/users' },
    }),
    stacks: ['firebase'],
    where: ['firestore.rules', 'firebase deploy --only firestore:rules'],
    verify: ['Permission denied'],
  },
  {
    name: 'missing CSP on Next.js: next.config.js headers(), and the header must come back',
    finding: finding({ checkId: 'csp-missing', family: 'headers' }),
    stacks: ['nextjs'],
    where: ['next.config.js', 'key: "Content-Security-Policy"'],
    verify: [`curl -s -i '${SITE}'`, "`Content-Security-Policy: default-src 'self'"],
  },
  {
    name: 'missing HSTS on Vercel: vercel.json',
    finding: finding({ checkId: 'hsts', family: 'transport' }),
    stacks: ['vercel'],
    where: ['vercel.json', '"key": "Strict-Transport-Security"'],
    verify: ['Strict-Transport-Security: max-age=63072000'],
  },
  {
    name: 'clickjacking on Netlify: netlify.toml',
    finding: finding({ checkId: 'clickjacking', family: 'headers' }),
    stacks: ['netlify'],
    where: ['netlify.toml', 'X-Frame-Options = "DENY"'],
    verify: ['X-Frame-Options: DENY'],
  },
  {
    name: 'nosniff on Express: helmet',
    finding: finding({ checkId: 'x-content-type-options', family: 'headers' }),
    stacks: ['express'],
    where: ['helmet'],
    verify: ['X-Content-Type-Options: nosniff'],
  },
  {
    name: 'header on an unknown stack: every common place',
    finding: finding({ checkId: 'referrer-policy', family: 'headers' }),
    stacks: [],
    where: ['next.config.js', 'vercel.json', 'netlify.toml', 'helmet', 'add_header Referrer-Policy'],
    verify: ['Referrer-Policy: strict-origin-when-cross-origin'],
  },
  {
    name: 'HTTPS redirect: hosting settings',
    finding: finding({ checkId: 'https-redirect', family: 'transport', url: 'http://shop.example.com/', evidence: { request: 'GET http://shop.example.com/' } }),
    stacks: [],
    where: ['Force HTTPS', 'x-forwarded-proto'],
    verify: ["curl -s -i 'http://shop.example.com/'", '301/308'],
  },
  {
    name: 'insecure cookie: cookie options',
    finding: finding({ checkId: 'cookie-httponly', family: 'cookies' }),
    stacks: ['nextjs'],
    where: ['cookies().set', 'httpOnly: true'],
    verify: ['HttpOnly, Secure and SameSite'],
  },
  {
    name: 'reflected CORS origin on Express: cors() allow-list',
    finding: finding({ checkId: 'cors-reflected-origin', family: 'cors', evidence: { request: `GET ${SITE}api/me\nOrigin: https://evil.example` } }),
    stacks: ['express'],
    where: ['cors({ origin: ["https://your-app.example"]'],
    verify: ["-H 'Origin: https://evil.example'", 'never the Origin sent'],
  },
  {
    name: 'exposed .env: out of the deploy, rotate, must be 404',
    finding: finding({ checkId: 'exposed-env-file', family: 'exposed-files', url: `${SITE}.env`, evidence: { request: 'GET /.env HTTP/1.1\nHost: shop.example.com' } }),
    stacks: ['vercel'],
    where: ['public/', '.vercelignore', 'rotate', 'Path found: /.env'],
    verify: ["curl -s -i 'https://shop.example.com/.env'", '404 (or 403)'],
  },
  {
    name: 'secret in the bundle: server-side env var without the public prefix, rotate',
    finding: finding({ checkId: 'secret-in-client', family: 'secrets', evidence: { request: `GET ${SITE}assets/index.js`, match: 'sk_live_…(masked)' } }),
    stacks: [],
    where: ['NEXT_PUBLIC_', 'VITE_', 'Rotate the key'],
    verify: ['no longer shows `sk_live_…(masked)`', 're-run the scan_url tool'],
  },
  {
    name: 'version disclosure: x-powered-by off',
    finding: finding({ checkId: 'server-version-disclosure', family: 'disclosure', evidence: { request: `GET ${SITE}`, match: 'X-Powered-By: Express' } }),
    stacks: ['express'],
    where: ["app.disable('x-powered-by')"],
    verify: ['no longer contains `X-Powered-By: Express`'],
  },
  {
    name: 'unauthenticated API: auth middleware, must be 401',
    finding: finding({ checkId: 'api-unauthenticated-data', family: 'api', evidence: { request: `GET ${SITE}api/users` } }),
    stacks: ['nextjs'],
    where: ['middleware.ts', 'route.ts'],
    verify: ['401 or 403 without credentials'],
  },
  {
    name: 'JWT without expiry: sign with exp and explicit algorithms',
    finding: finding({ checkId: 'jwt-no-expiry', family: 'tokens' }),
    stacks: [],
    where: ['exp', 'algorithms: ["HS256"]'],
    verify: ['re-run the scan_url tool with url https://shop.example.com/'],
  },
  {
    name: 'vulnerable framework: upgrade in package.json',
    finding: finding({ checkId: 'framework-vulnerable-version', family: 'frameworks' }),
    stacks: ['nextjs'],
    where: ['package.json', 'npm install'],
    verify: ['finding a1b2c3d4e5f60718 must be gone'],
  },
  {
    name: 'vulnerable library: upgrade or self-host, SRI',
    finding: finding({ checkId: 'vulnerable-js-library', family: 'libraries' }),
    stacks: [],
    where: ['integrity="sha384-'],
    verify: ['re-run the scan_url tool'],
  },
  {
    name: 'form without CSRF: token or SameSite plus Origin check',
    finding: finding({ checkId: 'login-form-no-csrf', family: 'forms' }),
    stacks: [],
    where: ['CSRF token'],
    verify: ['re-run the scan_url tool'],
  },
  {
    name: 'reflected XSS: encode output',
    finding: finding({ checkId: 'reflected-xss', family: 'active', evidence: { request: `GET ${SITE}search?q=%3Cscript%3E` } }),
    stacks: [],
    where: ['dangerouslySetInnerHTML'],
    verify: [`curl -s -i '${SITE}search?q=%3Cscript%3E'`],
  },
];

describe('explain_finding text', () => {
  it('covers every check family', () => {
    const covered = new Set<CheckFamily>(TABLE.map((row) => row.finding.family));
    expect(CHECK_FAMILIES.filter((family) => !covered.has(family))).toEqual([]);
  });

  it.each(TABLE)('$name', ({ finding: f, stacks, where, verify }) => {
    const explanation = explainFinding(f, stacks, SITE);
    expect(explanation.what).toContain(f.detail);
    expect(explanation.what).toContain(f.remediation);
    const whereText = explanation.where.join('\n');
    for (const text of where) expect(whereText).toContain(text);
    for (const text of verify) expect(explanation.verify).toContain(text);
    for (const heading of ['## What to change', '## Where', '## How to verify', '## Evidence']) expect(explanation.text).toContain(heading);
    expect(explanation.text).toContain(`Found at: ${f.url}`);
  });
});

describe('the stack of a scan', () => {
  it('is read from the evidence and the URLs', () => {
    const next = finding({
      checkId: 'csp-missing',
      family: 'headers',
      evidence: { request: `GET ${SITE}`, response: 'HTTP/1.1 200\nx-powered-by: Next.js\nx-vercel-id: fra1::abc' },
    });
    const supabase = finding({ checkId: 'supabase-table-readable', family: 'supabase', url: 'https://abc.supabase.co/rest/v1/notes' });
    expect(detectStacks(stackTexts([next, supabase]))).toEqual(['nextjs', 'vercel', 'supabase']);
    expect(detectStacks(stackTexts([], ['https://app.netlify.app/']))).toEqual(['netlify']);
    expect(detectStacks(stackTexts([finding({ checkId: 'x', family: 'headers' })]))).toEqual([]);
  });
});

describe('the request to repeat', () => {
  it('is a curl command from either form of evidence, or none', () => {
    expect(curlOf(finding({ checkId: 'x', family: 'api', evidence: { request: 'POST /graphql HTTP/1.1\nHost: api.example.com' } }))).toBe(
      "curl -s -i -X POST 'https://api.example.com/graphql'",
    );
    expect(curlOf(finding({ checkId: 'x', family: 'api', evidence: { request: "GET https://x.example/it's" } }))).toBe("curl -s -i 'https://x.example/it'\\''s'");
    expect(curlOf(finding({ checkId: 'x', family: 'api', evidence: {} }))).toBeNull();
    expect(curlOf(finding({ checkId: 'x', family: 'api', evidence: { request: 'not a request line' } }))).toBeNull();
  });
});

describe('fixPrompt', () => {
  const result = {
    target: { url: SITE, finalUrl: SITE },
    pages: [{ url: `${SITE}_next/static/app.js` }],
    findings: [] as Finding[],
  } as unknown as Parameters<typeof fixPrompt>[0];

  it('asks an AI coding tool for the fix, in the stack the scan saw, with the check a person runs afterwards', () => {
    const header = finding({ checkId: 'csp-missing', family: 'headers', title: 'No Content-Security-Policy' });
    const text = fixPrompt({ ...result, findings: [header] }, header);
    expect(text.split('\n')[0]).toBe(`Please fix this security weakness that vibeeval found in my app at ${SITE}. Change only what the fix needs.`);
    expect(text).toContain('# No Content-Security-Policy (high, csp-missing)');
    expect(text).toContain('Stack seen: nextjs');
    expect(text).toContain('next.config.js');
    expect(text).toContain(`Once the change is live, I will confirm it in vibeeval (Check again on this finding, or a new scan of ${SITE}).`);
    expect(text).not.toContain('scan_url');
  });
});

describe('curlOf with what a hostile site sends', () => {
  it('gives no command, and no exception, for a URL that does not parse as a base', () => {
    const hostile = finding({ checkId: 'csp-missing', family: 'headers', url: 'javascript:alert(1)', evidence: { request: 'GET /x HTTP/1.1\nHost: evil' } });
    expect(curlOf(hostile)).toBeNull();
    expect(() => explainFinding(hostile, [], SITE)).not.toThrow();
  });
});
