import { hasSideEffectWord, manifestRoutes } from '../analysis/api-surface';
import { maskEmail } from '../analysis/private-data';
import { isSoft404, maskSecrets, normalizeBody, redirectedAway, textSimilarity } from '../analysis/probe-answers';
import { collectTexts } from '../secrets/scan';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';

const ID = 'admin-page-unauthenticated';
const MAX_ROUTES = 6;
const ADMIN_ROUTE = /(["'`])(\/(?:admin|administrator|dashboard|internal|backoffice|back-office|staff|manage|management|console|cms|moderation)(?:\/[\w-]{1,40}){0,2})\/?\1/g;
/** Code that shows a route is meant for signed-in users: route guards, session lookups, redirects to a login page. */
const AUTH_GUARD =
  /requireAuth|RequireAuth|ProtectedRoute|PrivateRoute|AuthGuard|RequireAdmin|AdminRoute|withAuth|withPageAuthRequired|isAuthenticated|getServerSession|useSession|currentUser|auth\.getUser|getSession\(|onAuthStateChanged|clerkMiddleware|authMiddleware|(?:redirect|navigate|push|replace)\(\s{0,2}["'`]\/(?:login|signin|sign-in|auth)|to:\s{0,2}["'`]\/(?:login|signin|sign-in)|role\s{0,2}={2,3}\s{0,2}["'`]admin/;
const GUARD_RADIUS = 3_000;
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}/g;
const ADMIN_HEADING = /<h[1-3][^>]*>([^<]{0,80}(?:admin|dashboard|users|customers|members|orders|accounts|manage|control panel|back ?office)[^<]{0,80})<\/h[1-3]>/i;
const DATA_HEADER = /<th[^<>]*>\s*(?:e-?mail|user(?:name)?|role|customer|phone|status|created|signed up|plan|last login)\s*<\/th>/i;

/** Admin-looking routes the site's code declares near an auth guard: meant to be signed in. */
export function guardedAdminRoutes(site: SiteBeforeProbes): string[] {
  const routes = new Set<string>();
  for (const text of collectTexts(site)) {
    if (text.kind === 'storage' || text.kind === 'request') continue;
    const body = text.text;
    if (!AUTH_GUARD.test(body)) continue;
    for (const m of body.matchAll(ADMIN_ROUTE)) {
      const around = body.slice(Math.max(0, m.index - GUARD_RADIUS), m.index + GUARD_RADIUS);
      if (AUTH_GUARD.test(around)) routes.add(m[2]!);
    }
    for (const route of manifestRoutes(body)) {
      if (/^\/(?:admin|dashboard|internal|backoffice|staff|manage|console)(?:\/|$)/.test(route)) routes.add(route);
    }
  }
  return [...routes].filter((route) => !hasSideEffectWord(route) && !/[[\]:]/.test(route)).slice(0, MAX_ROUTES);
}

const probeOf = (site: Pick<Site, 'origin'>, route: string): ProbeRequest => ({ key: `${ID}:${route}`, method: 'GET', url: new URL(route, site.origin).href });

/** True when the page is the same client-rendered shell the site serves for its home page or for any path. */
function isShell(site: Site, answer: Exchange): boolean {
  if (isSoft404(answer, site.notFound)) return true;
  const page = normalizeBody(answer.body, answer.url);
  const root = normalizeBody(site.root.body, site.root.url);
  return page === root || textSimilarity(page, root) >= 0.8;
}

/** Proof that the HTML shows administration data: an admin heading and a table of people or records. */
export function adminContent(body: string): { heading: string; emails: string[]; rows: number } | undefined {
  if (/<input[^<>]+type=["']?password/i.test(body)) return undefined;
  const heading = ADMIN_HEADING.exec(body);
  if (!heading) return undefined;
  const emails = [...new Set(body.match(EMAIL) ?? [])];
  const rows = (body.match(/<tr[\s>]/gi) ?? []).length;
  const table = /<table[\s>]/i.test(body) && rows >= 3 && DATA_HEADER.test(body);
  if (!table && emails.length < 2) return undefined;
  return { heading: heading[1]!.trim(), emails, rows };
}

function finding(answer: Exchange, route: string, content: NonNullable<ReturnType<typeof adminContent>>): FindingDraft {
  const start = Math.max(0, answer.body.search(ADMIN_HEADING));
  // Table cells are people's data: only their first letter stays, emails keep their domain.
  const excerpt = maskSecrets(
    answer.body
      .slice(start, start + 700)
      .replace(EMAIL, (email) => maskEmail(email))
      .replace(/(<td[^<>]*>)\s*([^<\s])([^<]*)(<\/td>)/gi, (all, open: string, first: string, rest: string, close: string) =>
        rest.includes('***') ? all : `${open}${first}***${close}`,
      ),
  );
  const people = content.emails.length > 0 ? `, ${content.emails.length} email address${content.emails.length === 1 ? '' : 'es'}` : '';
  return {
    url: answer.url,
    title: `Admin page ${route} renders without signing in`,
    detail: `The site's code guards ${route} behind a sign-in, but the server renders it without a session: HTTP ${answer.status} with "${content.heading}" (${Math.max(0, content.rows - 1)} table rows${people}). The check happens only in the browser, or not at all.`,
    evidence: {
      request: `GET ${answer.url}\n(no cookies, no Authorization header)`,
      response: `HTTP ${answer.status}\ncontent-type: ${answer.contentType}\n\n${excerpt}`,
      match: content.heading,
    },
    key: route,
  };
}

export const adminPageUnauthenticated = defineCheck({
  id: ID,
  family: 'api',
  title: 'Admin page renders without signing in',
  severity: 'high',
  confidence: 'medium',
  cwe: 306,
  owasp: 'A01',
  description:
    "Requests, without a session, the admin and dashboard routes the site's code protects with a route guard or a redirect to its login page, and reports those the server renders with administration content (an admin heading over a table of users or records). A client-rendered shell identical to the home page is not reported: the data then still needs the API.",
  remediation:
    'Check the session on the server before rendering: in Next.js middleware (matcher: ["/admin/:path*"]) or at the top of the page with the auth library (const session = await auth(); if (!session) redirect("/login")) and verify the role, not only that someone is signed in; in Express put requireAuth and a role check before the admin router. A client-side ProtectedRoute only hides the page: the server must refuse it and the API behind it must check the session too.',
  references: [
    'https://owasp.org/Top10/A01_2021-Broken_Access_Control/',
    'https://nextjs.org/docs/app/building-your-application/authentication#protecting-routes-with-middleware',
    'https://cwe.mitre.org/data/definitions/306.html',
  ],
  probes(site) {
    return guardedAdminRoutes(site).map((route) => probeOf(site, route));
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const route of guardedAdminRoutes(site)) {
      const answer = site.probes.get(probeOf(site, route).key);
      if (!answer || answer.error || answer.status !== 200 || redirectedAway(answer) || !/html/i.test(answer.contentType)) continue;
      if (isShell(site, answer)) continue;
      const content = adminContent(answer.body);
      if (content) findings.push(finding(answer, route, content));
    }
    return findings;
  },
});
