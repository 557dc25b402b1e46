import { clientDataBlobs, FRAMEWORK_PROBE, frameworkProbes, isViteClient, detectFrameworks, describeFrameworks, type ClientDataBlob } from '../analysis/frameworks';
import { excerptAround, formatRequest, formatResponse, looksLikeSecretValue, maskSecrets } from '../analysis/probe-answers';
import { maskAll, maskSecret, secretId } from '../secrets/mask';
import { scanText } from '../secrets/scan';
import { defineCheck, type FindingDraft, type Severity, type Site } from '../types';

const ID = 'framework-server-data-leak';

/** `name: "value"` in JSON or a JS object literal (hydration data is one or the other); the value is a string. */
const PAIR = /["']?(?<![\w$.-])([A-Za-z_$][\w$.-]{1,80})["']?\s*:\s*(["'`])((?:(?!\2)[^\\\r\n]|\\.){1,2000})\2/g;
/** `NAME=value` inside a serialised string (an env file dumped into props). */
const ENV_LINE = /(?:^|\\n|\n)([A-Z][A-Z0-9_]{2,80})=([^\s"'\\]{4,2000})/g;
/** Names of values only a server should hold, on the name split into words (camelCase and dashes become '_'). */
const SERVER_NAME =
  /(?:^|_)(?:database|db|postgres(?:ql)?|pg|mongo(?:db)?|mysql|redis|supabase_db)_(?:url|uri|password|pass|connection)(?:_|$)|connection_?string|(?:^|_)secret(?:_|$)|service_?role|private_?key|(?:^|_)passw(?:or)?d(?:_|$)|(?:^|_)db_?pass(?:_|$)|signing_?key|encryption_?key|jwt_?(?:secret|key)|smtp_pass|(?:^|_)admin_?(?:key|token)(?:_|$)/;
/** Cheap prefilter for SERVER_NAME: a word every server-only name contains. */
const NAME_HINT = /secret|pass|key|url|uri|role|string|connection/i;
/** Names frameworks expose to the browser on purpose. */
const PUBLIC_NAME = /^(?:next_public|nuxt_public|vite|public|react_app|expo_public|gatsby|publishable|anon)_/;
/** Stripe's PaymentIntent/SetupIntent client secret is made for the browser. */
const STRIPE_CLIENT_SECRET = /^(?:pi|seti)_[0-9A-Za-z]+_secret_[0-9A-Za-z]+$/;
const CRITICAL_NAME = /service_?role|private_?key|(?:database|db|postgres(?:ql)?|mongo(?:db)?|mysql|redis)_(?:url|uri|password)|connection_?string/;

interface Leak {
  blob: ClientDataBlob;
  name: string;
  value: string;
  severity: Severity;
  what: string;
}

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-.]/g, '_')
    .toLowerCase();
const unescape = (text: string) =>
  text
    .replace(/\\\\/g, '\\')
    .replace(/\\"/g, '"')
    .replace(/\\u0026/g, '&');
const RANK: Record<Severity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

/** A named value judged: a leak, or undefined (public by design, placeholder, not server-only). */
function judgePair(blob: ClientDataBlob, name: string, value: string): Leak | undefined {
  if (!NAME_HINT.test(name)) return undefined;
  const normal = words(name);
  // Only server-sounding names are judged here (a cheap test on tens of thousands of pairs); provider keys under
  // any name are found by the one scan of the whole blob in leaksIn.
  if (!SERVER_NAME.test(normal)) return undefined;
  const hit = scanText(value, 'inline-script').find((h) => h.ruleId !== 'generic-secret');
  if (hit?.public) return undefined;
  if (hit) return { blob, name, value, severity: RANK[hit.severity] >= RANK.critical ? 'critical' : 'high', what: hit.label };
  if (PUBLIC_NAME.test(normal) || STRIPE_CLIENT_SECRET.test(value)) return undefined;
  // Credentials have no spaces; prose under a secret-like name ("passwordHint": "use 12 characters") is not one.
  if (!looksLikeSecretValue(value, name) || (/\s/.test(value) && !value.includes('-----BEGIN'))) return undefined;
  const credentialsInUrl = /:\/\/[^/\s:@]+:[^/\s@]{3,}@/.test(value);
  const critical = CRITICAL_NAME.test(normal) || credentialsInUrl || value.includes('-----BEGIN');
  return { blob, name, value, severity: critical ? 'critical' : 'high', what: credentialsInUrl ? 'connection string with a password' : 'server-only value' };
}

/** Every server value in one blob: named pairs, env lines, and provider keys under any name. */
export function leaksIn(blob: ClientDataBlob): Leak[] {
  const text = unescape(blob.text);
  const leaks = new Map<string, Leak>();
  // A connection string and the password inside it are one leak.
  const known = (value: string) => [...leaks.keys()].some((seen) => seen.includes(value) || value.includes(seen));
  const keep = (leak: Leak | undefined) => {
    if (leak && !known(leak.value)) leaks.set(leak.value, leak);
  };
  for (const m of text.matchAll(PAIR)) keep(judgePair(blob, m[1]!, m[3]!));
  if (/[A-Z_]{3}=/.test(text)) for (const m of text.matchAll(ENV_LINE)) keep(judgePair(blob, m[1]!, m[2]!));
  for (const hit of scanText(text, 'inline-script')) {
    if (hit.public || hit.ruleId === 'generic-secret' || known(hit.secret)) continue;
    const name = /["']?(?<![\w$.-])([A-Za-z_$][\w$.-]{0,80})["']?\s*[:=]\s*["'`]?$/.exec(text.slice(Math.max(0, hit.start - 120), hit.start))?.[1] ?? hit.label;
    leaks.set(hit.secret, { blob, name, value: hit.secret, severity: hit.severity === 'critical' ? 'critical' : 'high', what: hit.label });
  }
  return [...leaks.values()];
}

function leakFinding(site: Site, leak: Leak, all: readonly string[]): FindingDraft {
  const page = site.pages.find((p) => p.url === leak.blob.url);
  const body = page?.exchange.body ?? '';
  const at = leak.blob.offset >= 0 ? body.indexOf(leak.value, leak.blob.offset) : body.indexOf(leak.value);
  const excerpt = maskAll(at >= 0 ? excerptAround(body, at, 600) : maskSecrets(leak.blob.text.slice(0, 600)), all);
  const frameworks = describeFrameworks(detectFrameworks(site));
  return {
    url: leak.blob.url,
    severity: leak.severity,
    title: `Server value "${leak.name.slice(0, 60)}" in ${leak.blob.framework} client data`,
    detail:
      `The page serialises ${leak.blob.label} for the browser, and it holds "${leak.name.slice(0, 80)}" (${leak.what}, ${maskSecret(leak.value)}). ` +
      `Every visitor can read it in the page source.${frameworks ? ` Framework: ${frameworks}.` : ''}`,
    evidence: {
      request: page ? formatRequest(page.exchange) : `GET ${leak.blob.url}`,
      response: page ? formatResponse(page.exchange, { headers: ['content-type', 'x-powered-by'], excerpt }) : excerpt,
      match: `${leak.blob.label}: "${leak.name.slice(0, 80)}": "${maskSecret(leak.value)}"`,
    },
    key: `${leak.blob.label}:${secretId(leak.value)}`,
  };
}

function viteDevFinding(site: Site): FindingDraft | undefined {
  const answer = site.probes.get(FRAMEWORK_PROBE.viteClient);
  if (!answer || !isViteClient(answer)) return undefined;
  return {
    url: answer.url,
    severity: 'high',
    title: 'Vite development server in production',
    detail:
      "The site answers /@vite/client with Vite's hot-reload client: it is served by `vite` (the development server), not a production build. " +
      'The dev server serves source files as they are (environment variables included) and, in affected versions, files outside the project through /@fs/ (CVE-2025-30208, CVE-2025-31125, CVE-2025-31486).',
    evidence: {
      request: formatRequest(answer),
      response: formatResponse(answer, { headers: ['content-type', 'server'], excerpt: maskSecrets(answer.body.slice(0, 400)) }),
      match: 'GET /@vite/client → Vite HMR client',
    },
    key: 'vite-dev-server',
  };
}

export const frameworkServerDataLeak = defineCheck({
  id: ID,
  family: 'frameworks',
  title: 'Server values leaked into framework client data',
  severity: 'high',
  confidence: 'high',
  cwe: 200,
  owasp: 'A02',
  description:
    'Reads the data frameworks serialise into pages for hydration (Next.js __NEXT_DATA__ props and runtimeConfig, React Server Components flight data, Nuxt __NUXT__ / __NUXT_DATA__ config, SvelteKit and Remix loader data) for server-only values: database URLs, *_SECRET, service_role and private keys, passwords. Values public by design (NEXT_PUBLIC_*, anon and publishable keys) are not reported. Also asks /@vite/client to spot a Vite development server serving production traffic.',
  remediation:
    'Rotate the exposed value first. Then keep it on the server: in Next.js return only the fields the page renders from getServerSideProps/getStaticProps (never process.env or a whole config object), put secrets in serverRuntimeConfig (not publicRuntimeConfig) or read them in Server Components/route handlers only, and never pass them as props to Client Components; in Nuxt keep secrets at the top level of runtimeConfig, never under runtimeConfig.public; in SvelteKit load them with $env/static/private in +page.server.ts and return only what the page needs; in Remix return only public fields from loaders. Serve a production build (vite build, then a static host or vite preview behind a real server) instead of the Vite dev server.',
  references: [
    'https://nextjs.org/docs/app/building-your-application/configuring/environment-variables',
    'https://nextjs.org/docs/pages/api-reference/functions/get-server-side-props',
    'https://nuxt.com/docs/guide/going-further/runtime-config',
    'https://svelte.dev/docs/kit/$env-static-private',
    'https://vite.dev/guide/build',
    'https://cwe.mitre.org/data/definitions/200.html',
  ],
  probes(site) {
    return frameworkProbes(site).filter((probe) => probe.key === FRAMEWORK_PROBE.viteClient);
  },
  run(site) {
    const leaks = clientDataBlobs(site).flatMap(leaksIn);
    const values = leaks.map((leak) => leak.value);
    const seen = new Set<string>();
    const findings: FindingDraft[] = [];
    for (const leak of leaks) {
      const key = leak.value; // one finding per value, at the first page that carries it
      if (seen.has(key)) continue;
      seen.add(key);
      findings.push(leakFinding(site, leak, values));
    }
    const dev = viteDevFinding(site);
    if (dev) findings.push(dev);
    return findings;
  },
});
