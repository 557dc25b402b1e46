import { describe, expect, it } from 'vitest';
import { COVERAGE_LIST_LIMIT, scanCoverageSchema } from '../common/scan';
import { coverageFacts, coverageGaps, coverageIncomplete } from '../common/scan-coverage';
import { LoginWalls, backendCoverage, capped, isLoginUrl, needsLogin, scanCoverage, supabaseReachabilityFromProbes } from './coverage';
import { makeExchange, makeSite } from './testing/site';

const ORIGIN = 'https://app.example.test';
const PROJECT = 'https://abcdefghijklmnopqrst.supabase.co';
const SPA_SHELL = '<!doctype html><html><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>';

function coverageOf(site: ReturnType<typeof makeSite>, walls = new LoginWalls(), slowDowns = new Map<string, number>()) {
  return scanCoverage({ site, slowDowns, checksSkipped: [], loginWalls: walls });
}

describe('backends', () => {
  it('reports a Supabase project whose every probe failed as not checked, with the network error', () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/`, body: SPA_SHELL },
      probes: {
        'supabase-table-readable:count:abcdefghijklmnopqrst:profiles': {
          url: `${PROJECT}/rest/v1/profiles?select=*`,
          error: 'abcdefghijklmnopqrst.supabase.co could not be resolved (DNS: ENOTFOUND)',
        },
        'supabase-table-readable:row:abcdefghijklmnopqrst:profiles': {
          url: `${PROJECT}/rest/v1/profiles?select=*&limit=1`,
          error: 'abcdefghijklmnopqrst.supabase.co could not be resolved (DNS: ENOTFOUND)',
        },
        'exposed-env-file:/.env': { url: `${ORIGIN}/.env`, status: 404 },
        'graphql-introspection:abcdefghijklmnopqrst': { url: `${PROJECT}/graphql/v1`, error: 'abcdefghijklmnopqrst.supabase.co could not be resolved (DNS: ENOTFOUND)' },
      },
    });
    const [project, ...rest] = supabaseReachabilityFromProbes(site);
    expect(rest).toEqual([]);
    expect(project).toMatchObject({ kind: 'supabase', target: PROJECT, checked: false, requests: 3 });
    // The GraphQL probe of the project's origin counts for the project, not as another API.
    expect(backendCoverage(site)).toHaveLength(1);
    expect(project!.reason).toContain('could not be resolved (DNS: ENOTFOUND)');
    const coverage = coverageOf(site);
    expect(coverageIncomplete(coverage)).toBe(true);
    expect(coverageGaps(coverage)[0]).toBe(`The Supabase project ${PROJECT} could not be checked: ${project!.reason}. Its data was not tested.`);
  });

  it('counts a backend checked when one probe was answered, and says how many were not', () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/` },
      probes: {
        'supabase-table-readable:count:r:a': { url: `${PROJECT}/rest/v1/a?select=*`, status: 401 },
        'supabase-table-readable:count:r:b': { url: `${PROJECT}/rest/v1/b?select=*`, error: 'did not answer in time' },
        'api-docs-exposed:/swagger-ui': { url: `${ORIGIN}/swagger-ui`, status: 404 },
        'graphql-introspection:https://app.example.test/graphql': { url: `${ORIGIN}/graphql?query=x`, status: 404 },
        'api-unauthenticated-data:GET:https://api.example.test/v1/me': { url: 'https://api.example.test/v1/me', status: 401 },
        'firebase-firestore-readable:demo-app:users': { url: 'https://firestore.googleapis.com/v1/projects/demo-app/databases/(default)/documents/users?pageSize=1', status: 403 },
      },
    });
    expect(backendCoverage(site)).toEqual([
      { kind: 'supabase', target: PROJECT, requests: 2, checked: true, reason: '1 of 2 requests got no answer (did not answer in time)' },
      { kind: 'firebase', target: 'demo-app', requests: 1, checked: true, reason: undefined },
      // Guessed paths on the site itself (API documents, GraphQL) are not a backend; an endpoint the app calls is.
      { kind: 'api', target: 'https://api.example.test', requests: 1, checked: true, reason: undefined },
    ]);
    expect(coverageIncomplete(coverageOf(site))).toBe(false);
  });

  it("lists the app's own traffic: a Supabase project it called but no check could query, and other sites' APIs", () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/` },
      rendering: {
        status: 'done',
        requests: [
          { url: `${ORIGIN}/`, method: 'GET', resourceType: 'document', status: 200 },
          { url: 'https://self-hosted.example.org/rest/v1/posts?select=*', method: 'GET', resourceType: 'fetch', status: 200 },
          { url: 'https://api.stripe.test/v1/prices', method: 'GET', resourceType: 'xhr', status: 200 },
          { url: `${ORIGIN}/assets/x.js`, method: 'GET', resourceType: 'script', status: 200 },
        ],
      },
    });
    expect(backendCoverage(site)).toEqual([
      {
        kind: 'supabase',
        target: 'https://self-hosted.example.org',
        requests: 0,
        checked: false,
        reason: 'the app called it, but no check could query it (no public key for it was found)',
      },
      { kind: 'api', target: 'https://api.stripe.test', requests: 0, checked: false, reason: 'called by the app; another site, not probed' },
    ]);
    // Another site's API that was never probed is listed, not a gap.
    expect(coverageGaps(coverageOf(site))).toEqual([
      `The Supabase project https://self-hosted.example.org could not be checked: the app called it, but no check could query it (no public key for it was found). Its data was not tested.`,
    ]);
  });
});

describe('pages behind a login', () => {
  it('knows sign-in URLs by whole path segments', () => {
    expect(isLoginUrl(`${ORIGIN}/login?next=/dashboard`)).toBe(true);
    expect(isLoginUrl(`${ORIGIN}/auth/sign-in`)).toBe(true);
    expect(isLoginUrl(`${ORIGIN}/users/sign_in`)).toBe(true);
    expect(isLoginUrl(`${ORIGIN}/blog/login-tips-for-teams`)).toBe(false);
    expect(isLoginUrl(`${ORIGIN}/authors`)).toBe(false);
  });

  it('reads 401, 403 and redirects to a sign-in page as a login wall', () => {
    expect(needsLogin(makeExchange({ url: `${ORIGIN}/admin`, status: 401 }))).toBe(true);
    expect(needsLogin(makeExchange({ url: `${ORIGIN}/admin`, status: 403 }))).toBe(true);
    const redirected = makeExchange({
      url: `${ORIGIN}/dashboard`,
      finalUrl: `${ORIGIN}/login?next=%2Fdashboard`,
      redirects: [{ url: `${ORIGIN}/dashboard`, status: 302, location: '/login?next=%2Fdashboard', headers: [] }],
    });
    expect(needsLogin(redirected)).toBe(true);
    expect(
      needsLogin(makeExchange({ url: `${ORIGIN}/about`, finalUrl: `${ORIGIN}/about/`, redirects: [{ url: `${ORIGIN}/about`, status: 301, location: '/about/', headers: [] }] })),
    ).toBe(false);
    expect(needsLogin(makeExchange({ url: `${ORIGIN}/login`, status: 403 }))).toBe(false);
    expect(needsLogin(makeExchange({ url: `${ORIGIN}/x`, method: 'HEAD', status: 401 }))).toBe(false);
  });

  it("keeps the site's pages (links, sitemap), not probes of paths nobody links to", () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/`, body: '<a href="/dashboard">Dashboard</a><a href="/billing">Billing</a>' },
      sitemap: { url: `${ORIGIN}/sitemap.xml`, contentType: 'application/xml', body: `<urlset><url><loc>${ORIGIN}/settings</loc></url></urlset>` },
    });
    const walls = new LoginWalls();
    const toLogin = (path: string) =>
      makeExchange({ url: `${ORIGIN}${path}`, finalUrl: `${ORIGIN}/login`, redirects: [{ url: `${ORIGIN}${path}`, status: 307, location: '/login', headers: [] }] });
    walls.record(toLogin('/dashboard'));
    walls.record(toLogin('/dashboard'));
    walls.record(makeExchange({ url: `${ORIGIN}/billing`, status: 403 }));
    walls.record(makeExchange({ url: `${ORIGIN}/settings`, status: 401 }));
    walls.record(makeExchange({ url: `${ORIGIN}/server-status`, status: 403 }));
    walls.record(makeExchange({ url: `${ORIGIN}/about`, status: 200 }));
    expect(walls.pages(site)).toEqual([
      { url: `${ORIGIN}/billing`, status: 403, redirectedTo: undefined },
      { url: `${ORIGIN}/dashboard`, status: 307, redirectedTo: `${ORIGIN}/login` },
      { url: `${ORIGIN}/settings`, status: 401, redirectedTo: undefined },
    ]);
    expect(coverageGaps(coverageOf(site, walls))).toEqual([`3 pages need a login and were not checked signed in: ${ORIGIN}/billing, ${ORIGIN}/dashboard, ${ORIGIN}/settings.`]);
  });

  it('adds the rendered pages the app sent to sign in, once each, in URL order, after what HTTP saw', () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/`, body: '<a href="/dashboard">Dashboard</a><a href="/billing">Billing</a><a href="/orders">Orders</a>' },
      rendering: {
        status: 'done',
        loginRedirects: [
          { url: `${ORIGIN}/orders`, status: 200, redirectedTo: `${ORIGIN}/auth` },
          { url: `${ORIGIN}/dashboard`, status: 302, redirectedTo: `${ORIGIN}/login` },
          // A probe's path nobody links to is not one of the site's pages.
          { url: `${ORIGIN}/wp-admin`, status: 200, redirectedTo: `${ORIGIN}/login` },
        ],
      },
    });
    const walls = new LoginWalls();
    walls.record(
      makeExchange({ url: `${ORIGIN}/dashboard`, finalUrl: `${ORIGIN}/login`, redirects: [{ url: `${ORIGIN}/dashboard`, status: 302, location: '/login', headers: [] }] }),
    );
    expect(walls.pages(site)).toEqual([
      { url: `${ORIGIN}/dashboard`, status: 302, redirectedTo: `${ORIGIN}/login` },
      { url: `${ORIGIN}/orders`, status: 200, redirectedTo: `${ORIGIN}/auth` },
    ]);
  });

  it('does not count a page of the sign-in flow (sign-up, sign-out) that leads to sign in', () => {
    const toLogin = (path: string) =>
      makeExchange({ url: `${ORIGIN}${path}`, finalUrl: `${ORIGIN}/login`, redirects: [{ url: `${ORIGIN}${path}`, status: 302, location: '/login', headers: [] }] });
    expect(needsLogin(toLogin('/signup'))).toBe(false);
    expect(needsLogin(toLogin('/logout'))).toBe(false);
    expect(needsLogin(toLogin('/team'))).toBe(true);
  });
});

describe('rendering, fetching, rate limits and the whole', () => {
  it('says plainly when a single-page app was not rendered, and not for a site of plain pages', () => {
    const spa = makeSite({ root: { url: `${ORIGIN}/`, body: SPA_SHELL }, rendering: { status: 'skipped', reason: 'no browser was given for rendering' } });
    const coverage = coverageOf(spa);
    expect(coverage.rendering).toEqual({ ran: false, pages: 0, reason: 'no browser was given for rendering', singlePageApp: true });
    expect(coverageIncomplete(coverage)).toBe(true);
    expect(coverageGaps(coverage)[0]).toMatch(/^Nothing was rendered in a browser \(no browser was given for rendering\), and this site builds its pages with JavaScript/);

    const plain = makeSite({ root: { url: `${ORIGIN}/`, body: '<a href="/a">A</a><a href="/b">B</a><p>Hello</p>' }, rendering: { status: 'skipped', reason: 'off' } });
    expect(coverageOf(plain).rendering?.singlePageApp).toBe(false);
    expect(coverageGaps(coverageOf(plain))).toEqual([]);
  });

  it('counts fetched pages and scripts, rendered pages, and hosts that rate limited the scan', () => {
    const site = makeSite({
      root: { url: `${ORIGIN}/`, body: SPA_SHELL },
      pages: [{ url: `${ORIGIN}/pricing` }],
      assets: [{ url: `${ORIGIN}/assets/index-abc.js` }, { url: 'https://cdn.example.test/lib.js', error: 'cdn.example.test did not answer in time' }],
      rendering: {
        status: 'done',
        requests: [
          { url: `${ORIGIN}/`, method: 'GET', resourceType: 'document', status: 200 },
          { url: `${ORIGIN}/pricing`, method: 'GET', resourceType: 'document', status: 200 },
        ],
      },
    });
    const coverage = coverageOf(
      site,
      new LoginWalls(),
      new Map([
        ['app.example.test', 3],
        ['cdn.example.test', 1],
      ]),
    );
    expect(coverage.fetched).toEqual({ pages: 2, scripts: 1, scriptsFailed: 1 });
    expect(coverage.rendering).toEqual({ ran: true, pages: 2, reason: undefined, singlePageApp: true });
    expect(coverage.rateLimited).toEqual({
      items: [
        { host: 'app.example.test', answers: 3 },
        { host: 'cdn.example.test', answers: 1 },
      ],
      more: 0,
    });
    expect(coverageFacts(coverage)).toBe('2 pages and 1 script (1 without an answer) fetched; 2 pages rendered in a browser');
    expect(coverageGaps(coverage)).toEqual(['2 hosts rate limited the scan, so some requests may have gone unanswered: app.example.test, cdn.example.test.']);
    expect(scanCoverageSchema.parse(coverage)).toEqual(coverage);
  });

  it('caps every list, counting the rest, and the schema refuses longer lists', () => {
    const many = Array.from({ length: COVERAGE_LIST_LIMIT + 7 }, (_, i) => ({ host: `h${i}.test`, answers: 1 }));
    const list = capped(many);
    expect(list.items).toHaveLength(COVERAGE_LIST_LIMIT);
    expect(list.more).toBe(7);
    expect(scanCoverageSchema.safeParse({ checksSkipped: [], rateLimited: { items: many, more: 0 } }).success).toBe(false);
    expect(coverageGaps({ checksSkipped: [], rateLimited: list })[0]).toMatch(/^57 hosts rate limited the scan.*, h2\.test and 54 more\.$/);
  });

  it('says how many test accounts signed in, names one that could not and why, and drops the login gap once one did', () => {
    const loginRequired = { items: [{ url: `${ORIGIN}/account`, status: 302, redirectedTo: `${ORIGIN}/login` }], more: 0 };
    const refused = { account: 'bob@example.test', signedIn: false, method: 'supabase' as const, reason: 'Supabase refused the sign-in: Invalid login credentials.' };
    const signedIn = { account: 'alice@example.test', signedIn: true, method: 'supabase' as const };
    const throwaway = { account: 'vibeeval-0a1b2c3d4e5f@example.com', signedIn: true, method: 'supabase' as const, throwaway: true };
    const one = { checksSkipped: [], loginRequired, signIns: [signedIn, refused, throwaway] };
    expect(coverageFacts(one)).toBe('signed in as 1 of 2 test accounts');
    expect(coverageGaps(one)).toEqual([
      'The test account bob@example.test could not sign in: Supabase refused the sign-in: Invalid login credentials. What only a signed-in user reaches was not checked as that account.',
    ]);
    // No account signed in: the pages behind the login were not read signed in.
    const none = { checksSkipped: [], loginRequired, signIns: [refused] };
    expect(coverageFacts(none)).toBe('signed in as 0 of 1 test account');
    expect(coverageGaps(none)[1]).toBe(`1 page needs a login and was not checked signed in: ${ORIGIN}/account.`);
    expect(coverageFacts({ checksSkipped: [] })).toBe('');
  });

  it('still reads a stored coverage that holds only the skipped checks', () => {
    const stored = { checksSkipped: [{ checkId: 'secret-in-client', reason: 'stopped after 5 s of CPU time' }] };
    expect(scanCoverageSchema.parse(stored)).toEqual(stored);
    expect(coverageGaps(stored)).toEqual(['1 check did not run: secret-in-client (stopped after 5 s of CPU time).']);
    expect(coverageIncomplete(stored)).toBe(false);
  });
});
