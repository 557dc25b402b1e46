import { describe, expect, it } from 'vitest';
import { fixPrompt } from '../../common/fix-prompt';
import { escapeText } from '../html-kit';
import { REPORT_CSP } from './document';
import { renderHtml } from './html';
import { hostileFinding, loadSampleResult, sampleCoverage } from './__fixtures__/load';

describe('renderHtml', () => {
  const sample = loadSampleResult();
  const html = renderHtml(sample);

  it('is a self-contained document with a strict CSP and nothing to load', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    expect(html).not.toMatch(/<[a-z][^>]*\ssrc=/i); // evidence mentions src= only as escaped text
  });

  it('shows the header facts: product, target, date, duration, engine, pages, rendering', () => {
    expect(html).toContain('vibeeval');
    expect(html).toContain('<h1>vibeshop.example.com</h1>');
    expect(html).toContain('https://vibeshop.example.com &rarr; https://vibeshop.example.com/');
    expect(html).toContain('20 Nov 2025, 14:02 UTC');
    expect(html).toContain('43.4 s');
    expect(html).toContain('<dt>Engine version</dt><dd>1.0.0</dd>');
    expect(html).toContain('<dt>Pages scanned</dt><dd>8</dd>');
    expect(html).toContain('Done (Chromium 131.0.6778.85)');
  });

  it('says why rendering was skipped', () => {
    const skipped = renderHtml({ ...sample, rendering: { status: 'skipped', reason: 'no Chromium, Chrome or Edge was found' } });
    expect(skipped).toContain('Skipped: no Chromium, Chrome or Edge was found');
  });

  it('shows score, grade, header grade with its ten tests, and counts by severity', () => {
    expect(html).toContain('aria-label="Overall grade">D-</div>');
    expect(html).toContain('27<small> / 100</small>');
    expect(html).toContain('aria-label="Header grade">D</div>');
    expect(html).toContain('6 of 10 tests passed');
    for (const test of sample.headers.tests) expect(html).toContain(`<b>${test.test}</b>`);
    expect(html).toContain('<div class="count sev-critical"><b>2</b><span>Critical</span></div>');
    expect(html).toContain('<div class="count sev-medium"><b>3</b><span>Medium Risk</span></div>');
  });

  it("labels rows with the spec's words: red 'Critical', yellow 'Medium Risk', green 'Passed'", () => {
    expect(html).toContain('<li class="row-critical"><span class="badge sev-critical">Critical</span>');
    expect(html).toContain('<li class="row-medium"><span class="badge sev-medium">Medium Risk</span>');
    expect(html).toContain('<li class="row-passed"><span class="badge passed">Passed</span><div class="what"><b>Application Configuration Secure</b><span>12 secure components');
    for (const passed of sample.passed) expect(html).toContain(`<b>${escapeText(passed.title)}</b>`);
  });

  it('lists every finding grouped by severity with its evidence, remediation, CWE, OWASP and references', () => {
    const order = ['Critical (2)', 'High Risk (2)', 'Medium Risk (3)', 'Low Risk (2)', 'Info (1)'].map((h) => html.indexOf(`<h3>${h}</h3>`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const f of sample.findings) {
      expect(html).toContain(`<h3>${escapeText(f.title)}</h3>`);
      expect(html).toContain(escapeText(f.remediation));
      if (f.evidence.match) expect(html).toContain(`<pre class="match">${escapeText(f.evidence.match)}</pre>`);
    }
    expect(html).toContain('<a href="https://cwe.mitre.org/data/definitions/798.html" rel="noopener noreferrer nofollow">CWE-798</a>');
    expect(html).toContain('A07:2025 Authentication Failures');
    expect(html).toContain('<a href="https://supabase.com/docs/guides/api/api-keys" rel="noopener noreferrer nofollow">');
  });

  it("offers each finding's fix prompt to copy, without a script (selected whole by a click), and not in print", () => {
    for (const f of sample.findings) expect(html).toContain(`<pre>${escapeText(fixPrompt(sample, f))}</pre>`);
    expect(html.match(/<details class="fix-prompt"><summary>Copy fix prompt<\/summary>/g)).toHaveLength(sample.findings.length);
    expect(html).toContain('.fix-prompt pre { user-select: all;');
    expect(html.slice(html.lastIndexOf('@media print'))).toContain('.fix-prompt { display: none; }');
  });

  it('lists pages scanned and warnings', () => {
    expect(html).toContain('<h2>Pages scanned (8)</h2>');
    for (const page of sample.pages) expect(html).toContain(`href="${page.url}"`);
    for (const warning of sample.warnings) expect(html).toContain(`<li>${escapeText(warning)}</li>`);
  });

  it('renders hostile text from a scanned site inert', () => {
    const hostile = renderHtml({
      ...sample,
      target: { url: 'https://evil.example/<script>alert(0)</script>', finalUrl: 'https://evil.example/' },
      findings: [hostileFinding()],
      warnings: ['<script>alert(9)</script>'],
      pages: [{ url: 'javascript:alert(10)', status: 200, title: '<b onclick=x>', depth: 0, source: 'start' }],
    });
    expect(hostile).not.toMatch(/<script/i);
    expect(hostile).not.toMatch(/<img|<iframe/i);
    expect(hostile).not.toMatch(/<[^>]*\son\w+=/i); // no event-handler attribute inside any tag
    expect(hostile).not.toMatch(/href="javascript:/i);
    expect(hostile).toContain('&lt;script&gt;alert(5)&lt;/script&gt;');
    expect(hostile).toContain('&lt;img src=x onerror=alert(1)&gt; title');
    expect(hostile).toContain('&#39;&quot;&gt;&lt;iframe src=javascript:alert(6)&gt;');
    // The quote in a reference URL cannot break out of its href attribute.
    expect(hostile).toContain('href="https://evil.example/ref&quot;onmouseover=&quot;alert(8)"');
  });

  it('says so when nothing was found', () => {
    const clean = renderHtml({ ...sample, findings: [], counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 } });
    expect(clean).toContain('No issues were found on the scanned pages.');
    expect(clean).toContain('Application Configuration Secure');
  });

  it('has a coverage section: what could not be checked in plain words, backends, login pages, rate limits, skipped checks', () => {
    const withCoverage = renderHtml({ ...sample, coverage: sampleCoverage() });
    const section = withCoverage.slice(withCoverage.indexOf('<section id="coverage">'), withCoverage.indexOf('</section>', withCoverage.indexOf('<section id="coverage">')));
    expect(section).toContain('<h2>Coverage</h2>');
    expect(section).toContain(
      'The Supabase project https://abcdefghijklmnopqrst.supabase.co could not be checked: every request failed (6 requests): abcdefghijklmnopqrst.supabase.co refused the connection. Its data was not tested.',
    );
    expect(section).toContain('5 pages need a login and were not checked signed in');
    expect(section).toContain('4 pages and 12 scripts (1 without an answer) fetched; 3 pages rendered in a browser; 2 backends found, 1 checked; 1 check skipped.');
    expect(section).toContain('<span class="badge not-checked">Not checked</span>');
    expect(section).toContain('<h3>Hosts that rate limited the scan</h3>');
    expect(section).toContain('<span class="mono">secret-in-client</span>');
    expect(section).toContain('<p class="note">and 4 more</p>');
    // Site-controlled backend origins and page URLs stay text.
    expect(section).not.toMatch(/<script|<b>/i);
    expect(section).toContain('&lt;script&gt;alert(9)&lt;/script&gt;');
    // Shown before the findings, so an empty list is read with it.
    expect(withCoverage.indexOf('<h2>Coverage</h2>')).toBeLessThan(withCoverage.indexOf('<h2>Findings</h2>'));
  });

  it('tells "nothing found" from "nothing could be checked"', () => {
    const empty = { ...sample, findings: [], counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 } };
    const unchecked = renderHtml({ ...empty, coverage: sampleCoverage() });
    expect(unchecked).toContain('No issues were found on what could be checked, but not everything could be checked: see <a href="#coverage">Coverage</a>.');
    expect(unchecked).not.toContain('No issues were found on the scanned pages.');
    const complete = renderHtml({
      ...empty,
      coverage: { checksSkipped: [], fetched: { pages: 1, scripts: 0, scriptsFailed: 0 }, rendering: { ran: true, pages: 1, singlePageApp: false } },
    });
    expect(complete).toContain('<p class="complete">Everything the scan found could be checked.</p>');
    expect(complete).toContain('No issues were found on the scanned pages.');
    // A result stored before coverage was recorded has no section.
    expect(renderHtml(empty)).not.toContain('id="coverage"');
  });

  it('escapes the five HTML specials', () => {
    expect(escapeText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
