import { parse, parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import { describe, expect, it } from 'vitest';
import type { ScanResult } from '../common/scan';
import { sampleAccessibility, sampleEvents, samplePerformance } from '../engine/audits/__fixtures__/samples';
import { analyseEvents } from '../engine/audits/analytics';
import { hostileFinding, loadSampleResult, sampleCoverage } from '../engine/report/__fixtures__/load';
import { renderAccessibilityHtml, renderAnalyticsHtml, renderPerformanceHtml } from '../engine/report/audit-html';
import { renderHtml } from '../engine/report/html';
import { AUDIT_REPORT_STYLE, SECURITY_REPORT_STYLE } from '../engine/report/styles';
import { notificationMail, scenarioBatchMail } from './account/notification-mail';
import { adoptionMail, confirmationMail, recoveryMail, signUpAttemptMail } from './mail/templates';
import { publicReportMail, publicScanFailedMail } from './public-scans/mail';
import { previewPage } from './reports/preview-page';
import { invitationMail } from './workspaces/mail';

// Every report, mail and preview page fed text a scanned site (or a member naming a workspace or project) controls:
// markup that would open elements, attributes and handlers, close the <style> and <title> the page has, pre-escaped
// entities, javascript: links and unicode. Parsed with a real HTML parser (parse5, the WHATWG algorithm browsers use),
// each output must have exactly the elements and attributes of the same page fed the same text with its specials
// replaced, no handler, no script, no link that runs code, its own stylesheet only, and the hostile text shown as text.

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const PAYLOAD = `"><img src=x onerror=alert(1)>'><svg onload=alert(2)></style></title></textarea><script>alert(3)</script><!-- ]]> &amp; &#x3C;b&#x3E; 漢字🙂\u202E\u2028`;
const hostile = (prefix = '') => `${prefix}${PAYLOAD}`;
/** Links a site controls that must never become live: schemes that run code, in several spellings. */
const CODE_URLS = ['javascript:alert(7)', 'JaVaScRiPt:alert(8)', ' javascript:alert(9)', 'data:text/html,<script>alert(10)</script>', 'vbscript:msgbox(11)'];

/** The same input with every HTML special replaced: what the page's structure must be when nothing is injected. */
function defused<T>(value: T): T {
  if (typeof value === 'string') return value.replace(/[<>"'&]/g, '_') as T;
  if (Array.isArray(value)) return value.map(defused) as T;
  if (value && Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, defused(v)])) as T;
  return value;
}

function elements(node: Node, out: Element[] = []): Element[] {
  if ('tagName' in node) out.push(node);
  if ('childNodes' in node) for (const child of node.childNodes) elements(child, out);
  if ('content' in node) elements(node.content, out);
  return out;
}

function text(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  const attrs = 'attrs' in node ? node.attrs.map((a) => ` ${a.value} `).join('') : '';
  return attrs + ('childNodes' in node ? node.childNodes.map(text).join('') : '');
}

const skeleton = (root: Node) =>
  elements(root).map(
    (e) =>
      `${e.tagName}[${e.attrs
        .map((a) => a.name)
        .sort()
        .join(',')}]`,
  );

/** Renders `input` and its defused twin, and checks the hostile one is inert. */
function expectInert<T>(render: (input: T) => string, input: T, options: { fragment?: boolean; style?: string; shows?: string[] } = {}): void {
  const read = (html: string) => (options.fragment ? parseFragment(html) : parse(html));
  const output = render(input);
  const doc = read(output);
  const twin = read(render(defused(input)));
  const all = elements(doc);
  // Nothing injected: the same elements with the same attribute names, in the same order, as the defused twin.
  expect(skeleton(doc)).toEqual(skeleton(twin));
  expect(all.filter((e) => ['script', 'img', 'svg', 'textarea'].includes(e.tagName)).map((e) => e.tagName)).toEqual([]);
  expect(all.flatMap((e) => e.attrs.filter((a) => /^on/i.test(a.name)).map((a) => `${e.tagName} ${a.name}`))).toEqual([]);
  const links = all.flatMap((e) => e.attrs.filter((a) => ['href', 'src', 'action', 'formaction'].includes(a.name)).map((a) => a.value));
  expect(links.filter((url) => !/^(https?:\/\/|#)/i.test(url.trim()))).toEqual([]);
  // The only stylesheet is the page's own.
  const styles = all.filter((e) => e.tagName === 'style').map((e) => text(e));
  expect(styles).toEqual(options.style === undefined ? [] : [options.style]);
  if (!options.fragment) expect(all.filter((e) => e.tagName === 'title')).toHaveLength(1);
  // The hostile text is there, as text, escaped exactly once (the pre-escaped entities stay literal).
  const shown = text(doc);
  for (const expected of options.shows ?? [PAYLOAD]) expect(shown).toContain(expected);
}

function hostileScan(): ScanResult {
  const sample = loadSampleResult();
  const finding = hostileFinding({
    title: hostile('Title '),
    url: hostile('https://evil.example/'),
    detail: hostile(),
    evidence: { request: hostile('GET /'), response: hostile('HTTP/1.1 200 OK\r\nX-Header: '), match: hostile() },
    remediation: hostile(),
    references: [...CODE_URLS, hostile('https://evil.example/ref')],
  });
  return {
    ...sample,
    engineVersion: hostile('1.0.0'),
    target: { url: hostile('https://evil.example/'), finalUrl: hostile('https://evil.example/final') },
    rendering: { status: 'skipped', reason: hostile() },
    findings: [finding, hostileFinding({ fingerprint: 'cafebabecafebabe', url: CODE_URLS[0]!, severity: 'critical' })],
    suppressed: [{ ...hostileFinding({ fingerprint: 'feedfacefeedface', title: hostile() }), suppression: { decision: 'accepted_risk', reason: hostile(), expires_at: null } }],
    warnings: [hostile()],
    pages: [
      { url: CODE_URLS[1]!, status: 200, title: hostile(), depth: 0, source: 'start' },
      { url: hostile('https://evil.example/page'), status: 200, title: hostile(), depth: 1, source: 'link' },
    ],
    passed: sample.passed.map((p) => ({ ...p, title: hostile() })),
    headers: { ...sample.headers, tests: sample.headers.tests.map((t) => ({ ...t, result: hostile('header-value '), description: hostile() })) },
    coverage: {
      ...sampleCoverage(),
      checksSkipped: [{ checkId: 'secret-in-client', reason: hostile() }],
      backends: { items: [{ kind: 'api', target: hostile('https://api.evil.example/'), checked: false, requests: 1, reason: hostile() }], more: 0 },
      loginRequired: { items: [{ url: hostile('https://evil.example/login'), status: 302, redirectedTo: CODE_URLS[2]! }], more: 0 },
      rateLimited: { items: [{ host: hostile(), answers: 1 }], more: 0 },
      signIns: [{ account: hostile(), signedIn: false, method: 'form', reason: hostile() }],
    },
  };
}

describe('hostile text from a scanned site stays text', () => {
  it('in the security report (HTML, and the file the public scan mail attaches)', () => {
    expectInert(renderHtml, hostileScan(), { style: String(SECURITY_REPORT_STYLE), shows: [PAYLOAD, `Title ${PAYLOAD}`, `header-value ${PAYLOAD}`, CODE_URLS[0]!] });
  });

  it('in the performance report', () => {
    const sample = samplePerformance();
    const pages = sample.pages.map((p, i) => ({
      ...p,
      url: i === 0 ? hostile('https://vibeshop.example.com/') : p.url,
      finalUrl: hostile('https://vibeshop.example.com/final'),
      error: i === 1 ? hostile() : p.error,
      lcpElement: p.lcpElement === null ? null : hostile(),
      largestRequests: p.largestRequests.map((r, j) => ({ ...r, url: j === 0 ? CODE_URLS[j % CODE_URLS.length]! : hostile('https://cdn.example/'), resourceType: hostile() })),
    }));
    const input = { ...sample, target: hostile('https://vibeshop.example.com/'), browser: hostile('Chromium '), engineVersion: hostile(), pages, warnings: [hostile()] };
    expectInert(renderPerformanceHtml, input, { style: String(AUDIT_REPORT_STYLE) });
  });

  it('in the accessibility report', () => {
    const sample = sampleAccessibility();
    const pages = sample.pages.map((p) => ({
      ...p,
      url: hostile('https://vibeshop.example.com/'),
      violations: p.violations.map((v) => ({
        ...v,
        help: hostile(),
        description: hostile(),
        helpUrl: CODE_URLS[0]!,
        tags: [...v.tags, `wcag${PAYLOAD}`],
        nodes: v.nodes.map((n) => ({ ...n, target: hostile(), html: hostile(), failureSummary: hostile() })),
      })),
    }));
    const summary = { ...sample.summary, rules: sample.summary.rules.map((r) => ({ ...r, id: hostile(), help: hostile() })) };
    const input = { ...sample, target: hostile('https://vibeshop.example.com/'), axeVersion: hostile(), tags: [hostile()], pages, summary, warnings: [hostile()] };
    expectInert(renderAccessibilityHtml, input, { style: String(AUDIT_REPORT_STYLE) });
  });

  it('in the analytics report', () => {
    const events = sampleEvents().map((e, i) => ({
      ...e,
      url: i % 3 === 0 ? CODE_URLS[i % CODE_URLS.length]! : hostile('https://vibeshop.example.com/'),
      extra: e.extra && { ...e.extra, description: hostile() },
    }));
    const render = (list: typeof events) =>
      renderAnalyticsHtml(
        analyseEvents(list, {
          from: '2025-10-22T00:00:00.000Z',
          to: '2025-11-20T23:59:59.999Z',
          target: hostile('https://vibeshop.example.com/'),
          generatedAt: '2025-11-21T09:00:00.000Z',
        }),
      );
    expectInert(render, events, { style: String(AUDIT_REPORT_STYLE) });
  });

  it('in the public scan mails (report summary and failure)', () => {
    const scan = hostileScan();
    expectInert(
      (input: ScanResult) => publicReportMail({ to: 'a@example.com', url: input.target.url, result: input, reportHtml: '', reportLink: 'https://app.example/r?a=1&sig=s' }).html,
      scan,
      {
        fragment: true,
        shows: [`Title ${PAYLOAD}`, hostile('https://evil.example/')],
      },
    );
    expectInert((reason: string) => publicScanFailedMail({ to: 'a@example.com', url: hostile('https://evil.example/'), reason }).html, hostile(), { fragment: true });
  });

  it('in the notification mails of a scan, a scenario run and a build', () => {
    const link = 'https://app.example/reports/1/view?exp=1&sig=s';
    expectInert(
      (data: Record<string, unknown>) => notificationMail('a@example.com', 'scan.completed', data, link)!.html,
      { url: hostile('https://evil.example/'), grade: hostile(), score: 40, counts: { critical: 1 } },
      { fragment: true },
    );
    expectInert(
      (data: Record<string, unknown>) => notificationMail('a@example.com', 'scenario_run.completed', data, null)!.html,
      { name: hostile(), website: hostile(), status: 'failed', failed_step: 2, error: hostile() },
      { fragment: true },
    );
    expectInert(
      (data: Record<string, unknown>) => notificationMail('a@example.com', 'continuous_build.completed', data, link)!.html,
      { build_hash: hostile(), url: hostile(), status: 'error', grade: 'F', previous_grade: hostile(), new_count: 1, fixed_count: 0, error: hostile() },
      { fragment: true },
    );
    expectInert(
      (data: Record<string, unknown>) => notificationMail('a@example.com', 'scan.failed', data, null)!.html,
      { url: hostile('https://evil.example/'), error: hostile() },
      { fragment: true },
    );
    expectInert(
      (name: string) =>
        scenarioBatchMail('a@example.com', [
          { name, website: name, status: 'failed', failedStep: 0, error: name },
          { name, website: name, status: 'passed', failedStep: null, error: null },
        ]).html,
      hostile(),
      { fragment: true },
    );
  });

  it('in the workspace invitation and the account mails', () => {
    expectInert(
      (name: string) => invitationMail({ to: 'a@example.com', workspaceName: name, inviter: `${name} <x@example.com>`, link: 'https://app.example/join?t=1&u=2', hours: 72 }).html,
      hostile('Team '),
      {
        fragment: true,
      },
    );
    const account = { createdAt: new Date('2025-01-02T00:00:00Z'), projects: 1, scenarios: 1, webhookUrls: [hostile('https://hooks.example/'), CODE_URLS[0]!], apiKeys: 1 };
    expectInert((input: typeof account) => adoptionMail('a@example.com', input, 'https://app.example/adopt?t=1').html, account, { fragment: true });
    for (const mail of [recoveryMail, confirmationMail, signUpAttemptMail]) {
      expectInert((link: string) => mail('a@example.com', link).html, 'https://app.example/auth/v1/verify?token=t&type=x"><b>', { fragment: true, shows: [] });
    }
  });

  it('in the report preview page, whose title and target a member or a site names', () => {
    const input = {
      title: hostile('Project '),
      target: hostile('https://evil.example/'),
      createdAt: new Date('2025-11-20T14:02:00Z'),
      totalIssues: 3,
      viewUrl: 'https://app.example/reports/1/view?exp=1&sig=s',
      exports: [{ format: 'pdf', url: 'https://app.example/reports/1/export/pdf?exp=1&sig=s' }],
    };
    const style = /<style>([\s\S]*)<\/style>/.exec(previewPage(defused(input)))![1]!;
    expectInert(previewPage, input, { style, shows: [`Project ${PAYLOAD}`] });
  });
});
