import { describe, expect, it } from 'vitest';
import { CORS_PREFLIGHT_PREFIX, PROBE_ORIGIN } from '../analysis/cors';
import { HTTPS_REDIRECT_PROBE_KEY } from '../analysis/redirection';
import { makeSite, type ExchangeInit } from '../testing/site';
import { OBSERVATORY_RESULTS, gradeFor, scoreObservatory } from './observatory';

const URL = 'https://app.example.com/';
const toHttps: ExchangeInit = {
  url: 'http://app.example.com/',
  finalUrl: URL,
  body: '',
  redirects: [{ url: 'http://app.example.com/', status: 308, location: URL, headers: [['location', URL]] }],
};
const noCors: ExchangeInit = { url: URL, method: 'OPTIONS', status: 204, requestHeaders: { Origin: PROBE_ORIGIN } };

interface Init {
  headers?: Record<string, string | string[]>;
  body?: string;
  http?: ExchangeInit;
  cors?: ExchangeInit;
}
function site({ headers = {}, body = '<p>hi</p>', http = toHttps, cors = noCors }: Init) {
  return makeSite({
    root: { url: URL, headers: { 'content-type': 'text/html; charset=utf-8', ...headers }, body },
    probes: { [HTTPS_REDIRECT_PROBE_KEY]: http, [`${CORS_PREFLIGHT_PREFIX}${URL}`]: cors },
  });
}
const results = (init: Init) => Object.fromEntries(scoreObservatory(site(init)).tests.map((test) => [test.test, test.result]));

const RECOMMENDED = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'set-cookie': '__Host-session=abc123; Path=/; Secure; HttpOnly; SameSite=Lax',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};
const RECOMMENDED_BODY = '<script src="/assets/app.js" integrity="sha384-abc" crossorigin="anonymous"></script>';

describe('gradeFor', () => {
  it.each([
    [140, 'A+'],
    [100, 'A+'],
    [99, 'A'],
    [95, 'A'],
    [90, 'A'],
    [89, 'A-'],
    [85, 'A-'],
    [84, 'B+'],
    [80, 'B+'],
    [79, 'B'],
    [70, 'B'],
    [69, 'B-'],
    [65, 'B-'],
    [64, 'C+'],
    [60, 'C+'],
    [59, 'C'],
    [50, 'C'],
    [49, 'C-'],
    [45, 'C-'],
    [44, 'D+'],
    [40, 'D+'],
    [39, 'D'],
    [30, 'D'],
    [29, 'D-'],
    [25, 'D-'],
    [24, 'F'],
    [5, 'F'],
    [0, 'F'],
    [-10, 'F'],
  ] as const)('%i is %s', (score, grade) => {
    expect(gradeFor(score)).toBe(grade);
  });
});

describe('scoreObservatory', () => {
  it('runs the ten Observatory tests in its order, with modifiers from its table', () => {
    const { tests } = scoreObservatory(site({}));
    expect(tests.map((test) => test.test)).toEqual([
      'content-security-policy',
      'cookies',
      'cross-origin-resource-sharing',
      'redirection',
      'referrer-policy',
      'strict-transport-security',
      'subresource-integrity',
      'x-content-type-options',
      'x-frame-options',
      'cross-origin-resource-policy',
    ]);
    for (const test of tests) expect(test.scoreModifier).toBe(OBSERVATORY_RESULTS[test.result as keyof typeof OBSERVATORY_RESULTS][0]);
  });

  it('gives A+ (140) to a site with every recommended header', () => {
    // No penalty, so the bonuses count: 100 + CSP default-src 'none' 10 + cookies with SameSite 5 + referrer private 5
    // + SRI on all scripts 5 + frame-ancestors 5 + CORP same-origin 10 = 140.
    const result = scoreObservatory(site({ headers: RECOMMENDED, body: RECOMMENDED_BODY }));
    expect(result.tests.every((test) => test.pass)).toBe(true);
    expect(result).toMatchObject({ score: 140, grade: 'A+' });
  });

  it('gives C (50) to Vercel-style defaults: HSTS only', () => {
    // 100 - CSP missing 25 - X-Content-Type-Options missing 5 - X-Frame-Options missing 20 = 50.
    const result = scoreObservatory(site({ headers: { 'strict-transport-security': 'max-age=63072000' }, body: '<script src="/_next/static/chunks/main.js" async></script>' }));
    expect(result).toMatchObject({ score: 50, grade: 'C' });
    expect(results({ headers: { 'strict-transport-security': 'max-age=63072000' } })).toMatchObject({
      'content-security-policy': 'csp-not-implemented',
      redirection: 'redirection-to-https',
      'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
    });
  });

  it('gives C- (45) to a Lovable-style page: HSTS and a third-party script without SRI', () => {
    // 100 - CSP 25 - SRI not implemented for an https external script 5 - XCTO 5 - XFO 20 = 45.
    const body = '<script type="module" crossorigin src="/assets/index-abc.js"></script><script src="https://cdn.gpteng.co/gptengineer.js" type="module"></script>';
    const result = scoreObservatory(site({ headers: { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }, body }));
    expect(result).toMatchObject({ score: 45, grade: 'C-' });
  });

  it('gives F (10) to a site without any security header that also serves HTTP', () => {
    // 100 - CSP 25 - redirection missing 20 - HSTS 20 - XCTO 5 - XFO 20 = 10.
    const result = scoreObservatory(site({ http: { url: 'http://app.example.com/', body: '<p>hi</p>' } }));
    expect(result).toMatchObject({ score: 10, grade: 'F' });
    expect(result.tests.filter((test) => !test.pass).map((test) => test.test)).toEqual([
      'content-security-policy',
      'redirection',
      'strict-transport-security',
      'x-content-type-options',
      'x-frame-options',
    ]);
  });

  it('counts bonuses only when the score without them is at least 90', () => {
    // 100 - XCTO 5 - referrer unsafe 5 = 90, so bonuses count: 90 + 10 + 5 + 5 + 5 + 10 = 125.
    const at90 = { ...RECOMMENDED, 'x-content-type-options': 'sniff', 'referrer-policy': 'unsafe-url' };
    expect(scoreObservatory(site({ headers: at90, body: RECOMMENDED_BODY }))).toMatchObject({ score: 125, grade: 'A+' });
    // One more penalty (HSTS under six months, -10) gives 80 and drops every bonus.
    const at80 = { ...at90, 'strict-transport-security': 'max-age=86400' };
    expect(scoreObservatory(site({ headers: at80, body: RECOMMENDED_BODY }))).toMatchObject({ score: 80, grade: 'B+' });
  });

  it('never goes below 0', () => {
    const worst = site({
      headers: { 'set-cookie': 'sessionid=1', 'content-security-policy': 'x' },
      body: '<script src="http://cdn.example.net/a.js"></script>',
      http: { url: 'http://app.example.com/', body: 'x' },
      cors: { ...noCors, headers: { 'access-control-allow-origin': PROBE_ORIGIN, 'access-control-allow-credentials': 'true' } },
    });
    // 100 - 25 - 40 - 50 - 20 - 20 - 50 - 5 - 20 < 0.
    expect(scoreObservatory(worst)).toMatchObject({ score: 0, grade: 'F' });
  });

  describe('content-security-policy', () => {
    it.each([
      ["default-src 'self'", 'csp-implemented-with-no-unsafe'],
      ["default-src 'self' 'unsafe-inline'", 'csp-implemented-with-unsafe-inline'],
      ["default-src 'self'; script-src 'self' 'nonce-abc' 'unsafe-inline'; style-src 'self'", 'csp-implemented-with-no-unsafe'],
      ["default-src 'self'; script-src 'strict-dynamic'", 'csp-header-invalid'],
      ["default-src 'self'; script-src 'nonce-abc' 'strict-dynamic' https: 'unsafe-inline'", 'csp-implemented-with-no-unsafe'],
      ["default-src 'none'; script-src 'nonce-abc' 'strict-dynamic' https: 'unsafe-inline'", 'csp-implemented-with-no-unsafe-default-src-none'],
      // 'strict-dynamic' strips https: from the default-src set script-src falls back to, and so from object-src too.
      ["default-src 'nonce-abc' 'strict-dynamic' https:", 'csp-implemented-with-no-unsafe'],
      ["default-src 'self'; script-src 'self' 'unsafe-eval'", 'csp-implemented-with-unsafe-eval'],
      ["default-src 'self'; img-src http:", 'csp-implemented-with-insecure-scheme-in-passive-content-only'],
      ["default-src 'self'; connect-src http://api.example.com", 'csp-implemented-with-insecure-scheme'],
      ["default-src 'self'; style-src 'self' 'unsafe-inline'", 'csp-implemented-with-unsafe-inline-in-style-src-only'],
      ["script-src 'self'", 'csp-implemented-with-unsafe-inline'], // object-src unrestricted
      ["default-src 'self'; default-src 'none'", 'csp-header-invalid'],
      ["default-src 'self'; report-uri /a; report-uri /b", 'csp-implemented-but-duplicate-directives'],
      ['abc', 'csp-header-invalid'],
    ])('%s → %s', (policy, expected) => {
      expect(results({ headers: { 'content-security-policy': policy } })['content-security-policy']).toBe(expected);
    });

    it('combines several policies into the sources they share', () => {
      const csp = (policies: string[]) => results({ headers: { 'content-security-policy': policies } })['content-security-policy'];
      expect(csp(["default-src 'self' https:", "img-src 'self'"])).toBe('csp-implemented-with-unsafe-inline');
      expect(csp(["default-src 'self' https:", "default-src 'self'"])).toBe('csp-implemented-with-no-unsafe');
      // A directive only a later policy sets comes out 'none', as in the Observatory: here default-src 'none'.
      expect(csp(["script-src 'self'; object-src 'none'", "default-src 'self'"])).toBe('csp-implemented-with-no-unsafe-default-src-none');
    });

    it('counts a <meta> policy, and reporting alone as not implemented', () => {
      const meta = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`;
      expect(results({ body: meta })['content-security-policy']).toBe('csp-implemented-with-no-unsafe');
      expect(results({ headers: { 'content-security-policy-report-only': "default-src 'self'" } })['content-security-policy']).toBe('csp-not-implemented-but-reporting-enabled');
    });

    it('takes frame-ancestors of any value as X-Frame-Options via CSP', () => {
      expect(results({ headers: { 'content-security-policy': "default-src 'self'; frame-ancestors *" } })['x-frame-options']).toBe('x-frame-options-implemented-via-csp');
    });
  });

  describe('cookies', () => {
    it.each([
      [['a=1; Secure; SameSite=Lax'], 'cookies-secure-with-httponly-sessions-and-samesite'],
      [['a=1; Secure'], 'cookies-secure-with-httponly-sessions'],
      [['a=1'], 'cookies-without-secure-flag'],
      [['a=1; Secure; SameSite=Lox'], 'cookies-samesite-flag-invalid'],
      [['csrftoken=1; Secure'], 'cookies-anticsrf-without-samesite-flag'],
      [['sessionid=1; Secure'], 'cookies-session-without-httponly-flag'],
      [['sessionid=1; HttpOnly', 'csrftoken=1; Secure'], 'cookies-session-without-secure-flag'],
      [['heroku-session-affinity=1'], 'cookies-not-found'],
    ])('%o → %s', (cookies, expected) => {
      expect(results({ headers: { 'set-cookie': cookies } }).cookies).toBe(expected);
    });

    it('softens missing Secure when HSTS protects the site', () => {
      const hsts = { 'strict-transport-security': 'max-age=31536000' };
      expect(results({ headers: { ...hsts, 'set-cookie': 'a=1; SameSite=Lax' } }).cookies).toBe('cookies-without-secure-flag-but-protected-by-hsts');
      expect(results({ headers: { ...hsts, 'set-cookie': 'login=1; HttpOnly; SameSite=Lax' } }).cookies).toBe('cookies-session-without-secure-flag-but-protected-by-hsts');
    });
  });

  describe('redirection, CORS, referrer, HSTS, SRI, XCTO, XFO, CORP', () => {
    const hop = (url: string, location: string) => ({ url, status: 301, location, headers: [['location', location]] as const });
    it.each([
      [{ url: 'http://app.example.com/', error: 'ECONNREFUSED' }, 'redirection-not-needed-no-http'],
      [{ url: 'http://example.com/', finalUrl: URL, redirects: [hop('http://example.com/', URL)] }, 'redirection-off-host-from-http'],
      [
        { url: 'http://app.example.com/', finalUrl: URL, redirects: [hop('http://app.example.com/', 'http://app.example.com/x'), hop('http://app.example.com/x', URL)] },
        'redirection-not-to-https-on-initial-redirection',
      ],
      [{ url: 'http://app.example.com/', finalUrl: 'http://app.example.com/x', redirects: [hop('http://app.example.com/', '/x')] }, 'redirection-not-to-https'],
      [
        {
          ...toHttps,
          tls: { protocol: 'TLSv1.3', authorized: false, authorizationError: 'CERT_HAS_EXPIRED', subject: '', issuer: '', subjectAltNames: [], validFrom: '', validTo: '' },
        },
        'redirection-invalid-cert',
      ],
    ] as Array<[ExchangeInit, string]>)('redirection %# → %s', (http, expected) => {
      expect(results({ http }).redirection).toBe(expected);
    });

    it.each([
      [{ 'access-control-allow-origin': '*' }, 'cross-origin-resource-sharing-implemented-with-public-access'],
      [
        { 'access-control-allow-origin': 'https://app.example.com', 'access-control-allow-credentials': 'true' },
        'cross-origin-resource-sharing-implemented-with-restricted-access',
      ],
      [{ 'access-control-allow-origin': PROBE_ORIGIN }, 'cross-origin-resource-sharing-implemented-with-restricted-access'],
      [{ 'access-control-allow-origin': PROBE_ORIGIN, 'access-control-allow-credentials': 'true' }, 'cross-origin-resource-sharing-implemented-with-universal-access'],
    ])('CORS %o → %s', (headers, expected) => {
      expect(results({ cors: { ...noCors, headers } })['cross-origin-resource-sharing']).toBe(expected);
    });

    it.each([
      [{ 'referrer-policy': 'no-referrer, unsafe-url' }, '<p>', 'referrer-policy-unsafe'],
      [{ 'referrer-policy': 'unsafe-url' }, '<meta name="referrer" content="no-referrer">', 'referrer-policy-private'],
      [{ 'referrer-policy': 'nope' }, '<p>', 'referrer-policy-header-invalid'],
    ])('referrer %o %s → %s', (headers, body, expected) => {
      expect(results({ headers, body })['referrer-policy']).toBe(expected);
    });

    it.each([
      ['max-age=15552000', 'hsts-implemented-max-age-at-least-six-months'],
      ['max-age=15551999', 'hsts-implemented-max-age-less-than-six-months'],
      [['max-age=31536000', 'max-age=31536000'], 'hsts-header-invalid'],
      ['includeSubDomains', 'hsts-header-invalid'],
    ])('HSTS %o → %s', (value, expected) => {
      expect(results({ headers: { 'strict-transport-security': value } })['strict-transport-security']).toBe(expected);
    });

    it.each([
      ['<p>no scripts</p>', 'sri-not-implemented-but-no-scripts-loaded'],
      ['<script src="https://static.example.com/a.js"></script>', 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin'],
      ['<script src="https://cdn.other.net/a.js" integrity="sha384-x"></script>', 'sri-implemented-and-external-scripts-loaded-securely'],
      ['<script src="//cdn.other.net/a.js"></script>', 'sri-not-implemented-and-external-scripts-not-loaded-securely'],
      ['<script src="http://cdn.other.net/a.js" integrity="sha384-x"></script>', 'sri-implemented-but-external-scripts-not-loaded-securely'],
      // vibeeval's own monitoring script, as the Installation tab gives it, counts like a same-origin script...
      ['<script src="https://monitor.vibeeval.example/latest.js" data-site="vst_abcdefgh1234" async></script>', 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin'],
      // ...but not a look-alike without a site token, nor over plain HTTP.
      ['<script src="https://cdn.other.net/latest.js"></script>', 'sri-not-implemented-but-external-scripts-loaded-securely'],
      ['<script src="http://monitor.vibeeval.example/latest.js" data-site="vst_abcdefgh1234"></script>', 'sri-not-implemented-and-external-scripts-not-loaded-securely'],
    ])('SRI %s → %s', (body, expected) => {
      expect(results({ body })['subresource-integrity']).toBe(expected);
    });

    it('reads X-Content-Type-Options, X-Frame-Options and CORP values', () => {
      expect(results({ headers: { 'x-content-type-options': 'nosniff, nosniff' } })['x-content-type-options']).toBe('x-content-type-options-header-invalid');
      expect(results({ headers: { 'x-frame-options': 'ALLOW-FROM https://a.example' } })['x-frame-options']).toBe('x-frame-options-allow-from-origin');
      expect(results({ headers: { 'cross-origin-resource-policy': 'same-site' } })['cross-origin-resource-policy']).toBe('corp-implemented-with-same-site');
      expect(results({ headers: { 'cross-origin-resource-policy': 'nobody' } })['cross-origin-resource-policy']).toBe('corp-header-invalid');
    });

    it('reports SRI as not needed for a non-HTML start page, HSTS as impossible over plain HTTP', () => {
      const json = makeSite({ root: { url: 'http://api.example.com/', headers: { 'content-type': 'application/json' }, body: '{}' } });
      const tests = Object.fromEntries(scoreObservatory(json).tests.map((test) => [test.test, test.result]));
      expect(tests).toMatchObject({
        'subresource-integrity': 'sri-not-implemented-response-not-html',
        'strict-transport-security': 'hsts-not-implemented-no-https',
        redirection: 'redirection-not-needed-no-http',
      });
    });
  });
});
